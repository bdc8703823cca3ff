// layout_fix.h: `warpscope fix` as a library call: run the kernel once recording every
// shared and global access, search layouts for each array with excess wavefronts, price the
// global changes of every uncoalesced instruction (global_advice.h), then run the whole
// kernel again with the chosen layouts applied to the addresses (RemapListener) and report
// that second run. The "after" figures are measured on that run, never computed.
//
//   tile (4096 B, float): before 262144 + 8192 wavefronts, after 8192 + 8192
//     Swizzle<5,2,5>   tile[r][c ^ (r & 31)]   +0 B   8 blocks/SM before and after
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "analysis/atomic_advice.h"
#include "analysis/fusion_plan.h"
#include "analysis/global_advice.h"
#include "analysis/kernel_report.h"
#include "analysis/layout_search.h"
#include "analysis/occupancy.h"
#include "emu/launch.h"
#include "model/arch.h"
#include "support/expected.h"

namespace warpscope::analysis {

// Runs the kernel with the given listeners on fresh memory (each call starts from the same
// inputs: the kernel may have overwritten its buffers on the previous run).
using KernelRunner = std::function<Expected<emu::RunReport>(const emu::ListenerFactory&)>;

struct ArrayFix {
  int region = -1;
  std::string symbol;  // as in the PTX: "_ZZ19transpose_tiled_f32E4tile"
  std::string name;    // for code: "tile"
  std::string element_type;  // as declared in the .cu, else as the PTX accesses read it (element_type.h)
  bool dynamic = false;      // extern __shared__: sized by the launch (--dyn-smem)
  // Who lays the array out besides the kernel's own loads and stores: "TMA" (tensor copies
  // write it), "bulk copies", "wgmma" (it reads it through descriptors), joined by " and ";
  // empty for none. Such an array is searched over the hardware's swizzle modes only.
  std::string hardware;
  std::uint64_t base = 0;    // its offset in the block's shared memory
  std::uint64_t size = 0;
  // Shared wavefronts (loads and stores) of the instructions whose accesses fall in the
  // array, from the first run (before) and the proof run (after); scaled like the report.
  std::uint64_t before = 0;
  std::uint64_t ideal = 0;
  std::uint64_t after = 0;
  ArraySearch search;
  std::optional<LayoutCandidate> chosen;  // search.best[0], when it beats the declared layout
  // An array updated with shared atomics: the hot bins and the rewrites (atomic_advice.h). When
  // its best offered rewrite beats the best layout, the proof run applies it instead.
  std::optional<AtomicAdvice> atomics;
  bool atomics_applied = false;
  Occupancy occupancy_before, occupancy_after;  // the kernel's, with only this array changed
};

struct FixReport {
  KernelReport before;
  KernelReport after;  // the proof run
  std::vector<ArrayFix> arrays;
  std::uint64_t shared_bytes_before = 0;  // per block, static and dynamic
  std::uint64_t shared_bytes_after = 0;
  // The kernel's occupancy as written and with every chosen layout; registers from ptxas -v
  // (FixInputs::registers_per_thread), 0 when not counted.
  Occupancy occupancy_before, occupancy_after;
  int registers_per_thread = 0;
  std::string registers_note;  // where the count came from, or why there is none
  // Global instructions with sectors beyond the ideal, and what would help (global_advice.h).
  std::vector<GlobalAdvice> global;
  std::uint64_t global_blocks_recorded = 0;  // of blocks_run: the advice is scaled from these
  std::uint64_t blocks_run = 0;
  double min_gain = 0.01;                 // as requested
  std::uint64_t max_shared_per_block = 0;  // the block's limit no layout may pass
};

// "tile" from "_ZZ19transpose_tiled_f32E4tile"; other names as they are.
std::string array_name(const std::string& symbol);

struct FixInputs {
  const ptx::Module& module;
  std::string kernel;
  emu::LaunchConfig launch;
  std::uint64_t blocks_total = 0;
  const model::Arch& arch;
  const FusionPlan* plan = nullptr;
  KernelRunner run;
  SourceLines source_lines;
  std::size_t keep = 5;  // candidates reported per array
  double min_gain = 0.01;  // the least a change must save, as a fraction of what it changes (--min-gain)
  int registers_per_thread = 0;  // from ptxas -v; 0: not counted
  std::string registers_note;
};

Expected<FixReport> fix_kernel(const FixInputs& in);

}  // namespace warpscope::analysis
