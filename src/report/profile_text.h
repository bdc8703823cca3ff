// profile_text.h: `warpscope profile` as text: per profiled kernel, each ncu metric measured
// against predicted, then the Source page's lines, then the known causes of differences.
//
//   histogram256_rank  ncu ID 0  grid (32,1,1) block (256,1,1)  NVIDIA H200
//     launch    histogram256_rank: examples/histogram.ptx --kernel histogram256_rank ...
//     metric (ncu, .sum)                                        measured    predicted   difference
//     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom           18399        18399            0
//     source line                     L1 wavefronts shared       ideal   L2 sectors global     ideal
//     histogram.cu:35                           0 vs 18399   0 vs 2048       10240 = 10240  ...  [1]
//     2 figures differ, 0 unexplained
//     [1] inlined code: ncu shows an inlined instruction at its innermost line, ...
//
// Rows where both sides are zero are left out; a difference without a known cause is
// marked UNEXPLAINED.
#pragma once

#include <string>
#include <vector>

#include "profile/comparison.h"

namespace warpscope::report {

std::string profile_text(const std::vector<profile::KernelComparison>& kernels);

}  // namespace warpscope::report
