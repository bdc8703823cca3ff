// launch.h: running a kernel over a grid: the library entry point of the emulator.
//
//   emu::GlobalMemory memory;
//   auto in = memory.allocate(n * 4, "in");   auto out = memory.allocate(n * 4, "out");
//   auto report = emu::run(module, "transpose", {{32, 32}, {32, 8}},
//                          {emu::KernelArg::of(out), emu::KernelArg::of(in), emu::KernelArg::of(1024)},
//                          memory, {}, [] { return std::make_unique<MyListener>(); });
//
// Blocks run in parallel on `workers` threads (on one, in block order, when the kernel
// waits on other blocks: Program::waits_on_other_blocks). Each worker gets its own listener from the
// factory and sees whole blocks; RunReport::listeners holds them, in worker order, for
// the caller to merge. Setup problems (unknown kernel, wrong arguments, link errors) are
// Error values; problems found while running are RunReport::diagnostics.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "emu/events.h"
#include "emu/memory.h"
#include "ptx/ir.h"
#include "support/expected.h"

namespace warpscope::emu {

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  std::uint32_t dynamic_shared_bytes = 0;
  // Blocks per cluster (--cluster; .reqnctapercluster when left (1,1,1)): the one place
  // the cluster shape is kept. The blocks of a cluster run together in one worker; any shape
  // other than 1x1x1, or the kernel's .reqnctapercluster, is a cluster launch
  // (%is_explicit_cluster) and must divide the grid.
  Dim3 cluster{1, 1, 1};
  // A cooperative launch (cudaLaunchCooperativeKernel, --cooperative): every block is resident
  // at once, so blocks may wait on each other (a grid barrier), and %envreg1/2 hold the address
  // of the driver's grid workspace that cooperative_groups::this_grid().sync() counts arrivals
  // in. A kernel that reads %envreg1/2 (this_grid()) is launched cooperatively without it.
  bool cooperative = false;
};

// The order in which a block's warps take turns. Forward is the default; tests force the
// others (with a quantum of a few instructions) to check that a kernel's results do not
// depend on it.
enum class WarpOrder : std::uint8_t { Forward, Reverse, Random };

// A kernel argument's bytes, as they go into the parameter buffer (pointers: the
// buffer's device address as 8 bytes).
struct KernelArg {
  std::vector<std::uint8_t> bytes;
  template <class T>
  static KernelArg of(T value) {
    static_assert(std::is_trivially_copyable_v<T>);
    KernelArg a;
    a.bytes.resize(sizeof(T));
    std::memcpy(a.bytes.data(), &value, sizeof(T));
    return a;
  }
};

struct RunOptions {
  int workers = 0;                          // 0: one per hardware thread
  std::vector<std::uint64_t> blocks;        // linear block ids to run; empty: every block
  std::uint64_t step_budget = 1ull << 24;   // warp instructions per block
  bool check_uninitialized_shared = true;   // warn on shared reads of never-written bytes
  WarpOrder order = WarpOrder::Forward;
  std::uint64_t order_seed = 1;             // WarpOrder::Random's
  std::uint32_t quantum = 0;                // warp instructions per turn; 0: until the warp waits
  // Called as blocks finish with (blocks done, blocks to run): from the worker threads, one
  // call at a time, counts strictly increasing; the last call has the final count (every
  // block, unless an error stopped the run). A worker that finds another one reporting skips
  // its turn, so the hook costs one try_lock per block. It must not throw.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

using ListenerFactory = std::function<std::unique_ptr<Listener>()>;

struct RunReport {
  std::vector<Diagnostic> diagnostics;  // first occurrence of each (kind, instruction), with counts
  std::uint64_t blocks_run = 0;
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  double seconds = 0;
  int workers = 0;
  std::uint32_t static_shared_bytes = 0;  // the kernel's .shared variables
  std::uint32_t shared_bytes = 0;         // per block, with the dynamic shared memory
  std::uint32_t local_bytes = 0;          // per thread: .local variables and call parameters
  std::vector<Region> regions;  // AccessEvent::region indexes this
  std::vector<std::unique_ptr<Listener>> listeners;  // one per worker
  std::vector<std::uint64_t> executed;               // warp instructions per program index
  std::vector<const ptx::Instruction*> instructions; // program index -> instruction (nullptr: implicit ret)

  bool failed() const;  // an error diagnostic was raised
};

Expected<RunReport> run(const ptx::Module& module, std::string_view kernel, const LaunchConfig& config,
                        const std::vector<KernelArg>& args, GlobalMemory& memory, const RunOptions& options = {},
                        const ListenerFactory& listeners = {});

// The kernel's parameters as text, for messages: "u64 out, u64 in, u32 n" (the .cu's
// names when known, Variable::source_name, else the PTX's).
std::string describe_params(const ptx::Module& module, int kernel);
// Parameter i's name, the same way.
std::string param_name(const ptx::Module& module, int kernel, std::size_t i);

}  // namespace warpscope::emu
