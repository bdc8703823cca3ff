// fix_command.h: `warpscope fix FILE --kernel NAME --grid X[,Y[,Z]] --block X[,Y[,Z]]
//   [--dyn-smem BYTES] [--arg SPEC]... [--json] [--no-sass] [--sass-listing FILE] [--registers N]`
//
// The inputs of `warpscope kernel`. For each shared array with bank conflicts it searches
// layouts (padding, CuTe swizzles, TMA swizzle modes, skews), reports the best few with the
// code to write, and proves the winner by emulating the whole kernel again with the layout
// applied (analysis/layout_fix.h). For each uncoalesced global line it prices AoS to SoA,
// widening, base alignment and staging through shared memory (analysis/global_advice.h).
// Occupancy counts registers from `ptxas -v` (or --registers; not with --no-sass):
//
//   tile (4096 B, float): 270336 -> 16384 shared wavefronts (ideal 16384)
//     chosen  Swizzle<5,2,5>: tile[r][c ^ (r & 31)] ...   +0 B; 8 blocks/SM before and after
//
// --json: {"arrays": [{"array", "before", "after", "layout", "code", "smem_bytes",
//          "occupancy", ...}], "global": [...], "occupancy": {...}, "kernel_before": {...},
//          "kernel_after": {"metrics": {...}}}
#pragma once

namespace CLI {
class App;
}

namespace warpscope::cli {

struct CommandContext;

void add_fix_command(CLI::App& app, CommandContext& ctx);

}  // namespace warpscope::cli
