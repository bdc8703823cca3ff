// exec.h: what the per-family executors see of the running block. Internal.
//
// The block runner (block.cc) picks a warp's next operation and its lanes, applies the
// guard predicate, and calls the executor of the operation's family (the Family column of
// ptx/opcodes.def): exec_arith.cc, exec_bits.cc, exec_move.cc, exec_memory.cc,
// exec_warp.cc. Control flow and barriers stay in the runner.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "emu/events.h"
#include "emu/memory.h"
#include "emu/program.h"
#include "emu/warp.h"

namespace warpscope::emu {

// The shared memories of the blocks of one cluster, running together (block.h's
// ClusterRunner): rank r's shared memory is shared[r], for ld/st.shared::cluster, mapa,
// remote mbarrier arrivals and multicast copies.
struct ClusterContext {
  std::uint32_t size = 1;  // blocks in the cluster
  std::vector<std::uint8_t*> shared;
  std::vector<std::uint8_t*> shared_written;  // nullptr entries: not checked
  std::uint32_t shared_size = 0;
  std::uint64_t mbarrier_epoch = 0;
  std::uint64_t threads = 0;          // of all its blocks
  std::uint64_t exited_threads = 0;   // count as arrived at the cluster barrier
  struct Barrier {
    std::uint64_t arrived = 0;
    std::uint64_t generation = 0;     // completed phases of barrier.cluster
  } barrier;
};

struct BlockContext {
  const Program* program = nullptr;
  GlobalMemory* memory = nullptr;
  Listener* listener = nullptr;
  const std::vector<Region>* regions = nullptr;  // shared regions first, then buffers
  std::size_t first_buffer_region = 0;
  Dim3 grid, block_dim, block;
  std::uint64_t block_index = 0;
  std::uint8_t* shared = nullptr;
  std::uint32_t shared_size = 0;
  // shared_size rounded up to the allocation unit (kSharedAllocationUnit): the bytes the block
  // may touch without a fault; those past shared_size are no variable's (a warning).
  std::uint32_t shared_window = 0;
  std::uint8_t* shared_written = nullptr;  // one flag per byte; nullptr: not checked
  std::uint8_t* reserved_shared = nullptr; // kReservedSharedBytes at kReservedSharedOffset
  std::uint8_t* local = nullptr;           // thread t's local memory at t * local_size
  std::uint32_t local_size = 0;
  const std::uint8_t* params = nullptr;
  std::uint32_t param_size = 0;
  const Buffer* last_buffer = nullptr;  // lookup cache
  std::uint32_t pc = 0;                 // of the operation being executed
  bool failed = false;                  // a fatal diagnostic was raised
  // Set by an mbarrier wait: lanes whose phase has not completed. They stay at the wait
  // (not advanced) and sleep until a phase completes (block.cc).
  std::uint32_t wait_lanes = 0;
  std::uint64_t wait_address = 0;       // the mbarrier they wait on, for the deadlock report
  int wait_parity = -1;                 // the phase parity awaited (-1: a token's)
  bool wait_cluster_barrier = false;    // barrier.cluster.wait
  // Phases completed so far in the block, or the cluster (cluster->mbarrier_epoch).
  std::uint64_t* mbarrier_epoch = nullptr;
  ClusterContext* cluster = nullptr;    // the blocks running together; nullptr: none
  int cluster_rank = 0;                 // %cluster_ctarank
  // cp.async.bulk commit groups in flight (copies complete at issue: kept for checks).
  std::uint32_t bulk_groups = 0;
  // Scratch for bulk copies (a box row's bytes, the shared footprint), kept between calls.
  std::vector<std::uint8_t> copy_row;
  std::vector<SharedChunk> copy_chunks;

  // Records a diagnostic for the current operation (deduplicated per pc and kind).
  void diagnose(Diagnostic::Kind kind, Diagnostic::Severity severity, int warp, int lane,
                std::string message);
  std::vector<Diagnostic> diagnostics;
  std::vector<std::int32_t> warned;  // per (pc, kind): 1 + index into diagnostics, or 0

  Dim3 thread_of(int warp, int lane) const;
  // "transpose.cu:15:5" for the current operation: its user position (ptx/source_position.h;
  // a toolkit header's code at the user's call site). Diagnostic::instruction has the PTX line.
  std::string where() const;
};

// Each returns false when it raised a fatal diagnostic (ctx.failed).
bool exec_arith(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_special(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_bits(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_compare(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_move(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_memory(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_atomic(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);  // exec_atomic.cc
bool exec_warp(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);
bool exec_async(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);

// "unsupported instruction 'X' at file:line (file.cu:line): why" as an error
// diagnostic; returns false.
bool unsupported(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx);

}  // namespace warpscope::emu
