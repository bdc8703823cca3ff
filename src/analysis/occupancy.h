// occupancy.h: how many blocks of a kernel fit on one SM, from its shared memory and block
// size (registers are not modelled: PTX does not say how many ptxas will allocate).
//
//   sm_90, 256 threads, 4096 B shared:  per block round_up(4096 + 1024 reserved, 128) = 5120 B
//     by shared memory 228 KiB / 5120 = 45, by warps 64 / 8 = 8, by blocks 32 -> 8 (warps)
//
// The carveout is taken at its largest (max_shared_per_sm): the driver picks a carveout
// that fits the kernel's needs, so a smaller one never raises occupancy.
#pragma once

#include <cstdint>
#include <string>

#include "model/arch.h"

namespace warpscope::analysis {

struct Occupancy {
  std::uint64_t shared_per_block = 0;  // as allocated: with the reserve, rounded to the granularity
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  std::string limited_by;  // "warps", "blocks", "shared memory"
};

Occupancy occupancy(const model::Arch& arch, std::uint64_t shared_bytes, std::uint64_t threads_per_block);

}  // namespace warpscope::analysis
