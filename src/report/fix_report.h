// fix_report.h: the writers of `warpscope fix` (analysis/layout_fix.h's FixReport).
//
// text:
//   occupancy: 8 blocks (64 warps) per SM before and after, limited by warps; 20 registers per thread (ptxas -v)
//   tile (4096 B, float elements): 270336 -> 16384 shared wavefronts (ideal 16384), after ...
//     layout   Swizzle<5,2,5>
//     code     tile[r][c ^ (r & 31)]  // rows of 32; 1-D: tile[i ^ ((i >> 5) & 31)]
//     shared   +0 B; 8 blocks (64 warps) per SM before and after, limited by warps
//   global memory (uncoalesced instructions; each change re-priced on every recorded access):
//     transpose_naive.cu:19  st.global.f32 x4: 262144 sectors (ideal 32768), 8192 requests
//       stage through shared memory: 262144 -> 32768 sectors, 8192 -> 8192 requests, saves 229376
// JSON:
//   {"arrays": [{"array", "before", "after", "layout", "code", "cute", "smem_bytes",
//     "occupancy", "candidates", ...}], "global": [{"file", "line", "instruction", "before",
//     "suggestions": [{"change", "sectors", "requests", "saved", "detail"}]}], "occupancy",
//     "kernel_before": {...}, "kernel_after": {"metrics": {...}}}
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "analysis/layout_fix.h"

namespace warpscope::report {

nlohmann::json fix_json(const analysis::FixReport& report);
std::string fix_text(const analysis::FixReport& report);

}  // namespace warpscope::report
