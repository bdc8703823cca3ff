// profile_text.h: `warpscope profile` as text: per profiled kernel, each ncu metric measured
// against predicted, then the Source page's lines, then the known causes of differences.
//
//   transpose_tiled_f32  ncu ID 0  grid (16,16,1) block (32,8,1)  NVIDIA H200
//     launch    examples/transpose_tiled.ptx --kernel transpose_tiled_f32 ...
//     metric                                                   measured    predicted   difference
//     l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld           262144       262144            0
//     line                      shared wavefronts    ideal      global sectors      ideal
//     transpose_tiled.cu:27     262144 = 262144      8192 = 8192  32768 = 32768     32768 = 32768
//     agrees: 0 differences
#pragma once

#include <string>
#include <vector>

#include "profile/comparison.h"

namespace warpscope::report {

std::string profile_text(const std::vector<profile::KernelComparison>& kernels);

}  // namespace warpscope::report
