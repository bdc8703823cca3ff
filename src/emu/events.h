// events.h: what the emulator publishes, and the listener interface analyses implement.
//
// Like llvm-mca's HWEventListener: the emulator knows nothing of costs. Every memory
// instruction a warp executes in shared or global memory becomes an AccessEvent:
//
//   block (3,0,0) warp 2  st.shared.f32  transpose.cu:15  mask 0xffffffff
//   access = {sts, width 4, address[lane] = shared offset}, region = "tile"
//
// Shared addresses are offsets in the block's shared memory; global addresses are the
// buffers' device addresses. Local, param and const accesses produce no events. Barriers
// (one event per warp that arrives) and divergent branches have their own events.
//
// Threading: blocks run in parallel, one Listener per worker thread (see launch.h's
// ListenerFactory); a listener sees whole blocks, in order within each block, and is
// never called from two threads. Merge the per-worker listeners after run().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/ldgsts_cost.h"
#include "model/warp_access.h"
#include "ptx/ir.h"

namespace warpscope::emu {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t(x) * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

// "(3,0,0)"
inline std::string to_string(const Dim3& d) {
  std::string s = "(";
  s += std::to_string(d.x);
  s += ',';
  s += std::to_string(d.y);
  s += ',';
  s += std::to_string(d.z);
  s += ')';
  return s;
}

// A named range of memory an address may fall in: a shared variable, the dynamic
// shared memory, or a global buffer (kernel argument or .global variable).
struct Region {
  std::string name;
  model::Space space = model::Space::Shared;
  std::uint64_t base = 0;  // shared: offset in the block's shared memory
  std::uint64_t size = 0;
  // The driver's reserved shared memory (cooperative groups' scratch): not the kernel's
  // own array, so no layout of it is the kernel's to change.
  bool reserved = false;
};

struct AccessEvent {
  const ptx::Instruction* instruction = nullptr;  // in the module; ptx_line and debug loc
  std::uint32_t pc = 0;                           // the instruction's index in the program
  Dim3 block;
  std::uint64_t block_index = 0;                  // linear block id
  int warp = 0;
  model::WarpAccess access;
  int region = -1;  // index into RunReport::regions (the first active lane's), -1 unknown
  bool async_copy = false;  // one half of a cp.async (global read or shared write)
  // An atomic min/max on shared memory: the lanes whose value was already the min (max), so
  // the op left memory as it was (ptxas's 64-bit min/max CAS loop exits after its load).
  std::uint32_t unchanged = 0;
  // cp.async: both halves carry the whole copy (who reads what, who zero-fills), which
  // prices the shared write and the Source page's sectors (model/ldgsts_cost.h).
  const model::LdgstsAccess* ldgsts = nullptr;
};

struct BarrierEvent {
  const ptx::Instruction* instruction = nullptr;
  std::uint32_t pc = 0;
  Dim3 block;
  std::uint64_t block_index = 0;
  int warp = 0;
  std::uint32_t mask = 0;  // the lanes that arrived
};

// A conditional branch that split a warp: `taken` lanes jump, `not_taken` fall through.
struct DivergenceEvent {
  const ptx::Instruction* instruction = nullptr;
  std::uint32_t pc = 0;
  Dim3 block;
  std::uint64_t block_index = 0;
  int warp = 0;
  std::uint32_t taken = 0;
  std::uint32_t not_taken = 0;
};

// One 16-byte chunk of a bulk copy's shared-memory end: box row `row`, bytes
// [column, column + 16) of it, at `shared` (after the swizzle).
struct SharedChunk {
  std::uint32_t shared = 0;
  std::uint32_t row = 0;
  std::uint32_t column = 0;
};

// A bulk asynchronous copy one lane issued: a TMA box (cp.async.bulk.tensor and its
// reduce and prefetch forms) or a cp.async.bulk range. TMA moves data without the LSU:
// it has counters of its own (smsp__inst_executed_op_tma_ld, l1tex__m_xbar2l1tex_read_
// sectors_mem_global_op_tma_ld, ...), which the analyses predict from these figures.
struct BulkCopyEvent {
  enum class Kind : std::uint8_t { Load, Store, Reduce, Prefetch };
  const ptx::Instruction* instruction = nullptr;
  std::uint32_t pc = 0;
  Dim3 block;
  std::uint64_t block_index = 0;
  int warp = 0;
  int lane = 0;
  bool first_of_warp = false;        // the first issuing lane of this warp execution
  Kind kind = Kind::Load;
  bool tensor = false;               // a TMA box, not a byte range
  std::uint64_t bytes = 0;           // what the copy moves (a box's out-of-bounds fill included)
  std::uint64_t global_bytes = 0;    // of them, bytes inside the tensor (read or written)
  std::uint64_t global_sectors = 0;  // 32-byte sectors those bytes touch, each box row apart
  std::uint64_t ideal_sectors = 0;   // the fewest sectors those bytes fit in (32-byte aligned rows)
  std::uint32_t shared = 0;          // the shared end's first byte (before the swizzle)
  std::uint32_t row_bytes = 0;       // a box row's bytes (a range: its size)
  std::uint32_t swizzle_bytes = 0;   // 0, 32, 64, 128
  int destinations = 1;              // blocks written (a multicast load: the mask's)
  // The shared footprint, chunk by chunk (valid during the call only).
  const std::vector<SharedChunk>* footprint = nullptr;
};

struct BlockEvent {
  Dim3 block;
  std::uint64_t block_index = 0;
};

class Listener {
 public:
  virtual ~Listener() = default;
  virtual void on_block_begin(const BlockEvent&) {}
  virtual void on_access(const AccessEvent&) {}
  virtual void on_barrier(const BarrierEvent&) {}
  virtual void on_divergence(const DivergenceEvent&) {}
  virtual void on_bulk_copy(const BulkCopyEvent&) {}
  virtual void on_block_end(const BlockEvent&) {}
};

struct Diagnostic {
  enum class Severity : std::uint8_t { Warning, Error };
  enum class Kind : std::uint8_t {
    OutOfBounds,         // error: an access outside every buffer / the shared memory
    Misaligned,          // error: an address not a multiple of the access size
    BarrierDivergence,   // error: a barrier not every thread of the block reaches
    StepBudget,          // error: too many instructions (an endless loop?)
    Unsupported,         // error: an instruction the emulator does not implement
    Trap,                // error: the kernel executed trap
    UninitializedShared, // warning: a shared-memory read of bytes never written
    Deadlock,            // error: no warp can progress (mbarrier phases, named barriers)
    AsyncMisuse,         // error or warning: a bad tensor map, mbarrier or bulk copy
    SharedPastEnd,       // warning: a shared access past the kernel's shared memory, inside the
                         // block's allocation (no fault on the GPU)
    NotModelled,         // warning: the GPU moves memory warpscope does not count (printf)
    Rescheduled,         // warning: blocks that wait on each other ran resident at once (launch.cc)
  };
  Severity severity = Severity::Error;
  Kind kind = Kind::OutOfBounds;
  std::string message;  // full sentence, with the source position
  const ptx::Instruction* instruction = nullptr;
  Dim3 block;
  Dim3 thread;
  std::uint64_t count = 1;  // how many times it happened (same kind and instruction)
};

}  // namespace warpscope::emu
