// occupancy.h: how many blocks of a kernel fit on one SM, from its registers per thread (when
// `ptxas -v` told us), its shared memory and its block size, by the CUDA occupancy
// calculator's rules (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor).
//
//   sm_90, 256 threads, 4096 B shared, 40 registers:
//     shared    per block round_up(4096 + 1024 reserved, 128) = 5120 B -> 228 KiB / 5120 = 45
//     registers per warp round_up(40 * 32, 256) = 1280; 65536 / 4 sub-partitions = 16384
//               -> 12 warps each, 48 per SM -> 48 / 8 warps per block = 6
//     warps     64 / 8 = 8;   blocks 32
//     -> 6 blocks (48 warps) per SM, limited by registers
//
// The carveout is taken at its largest (max_shared_per_sm): the driver picks a carveout
// that fits the kernel's needs, so a smaller one never raises occupancy. Registers unknown
// (0) put no limit: the report then says they were not counted.
#pragma once

#include <cstdint>
#include <string>

#include "model/arch.h"

namespace warpscope::analysis {

struct Occupancy {
  std::uint64_t shared_per_block = 0;  // as allocated: with the reserve, rounded to the granularity
  int registers_per_thread = 0;        // 0: not counted (no ptxas)
  int blocks_per_sm = 0;
  int warps_per_sm = 0;
  // The limits, in blocks per SM; by_registers is -1 when registers were not counted.
  int by_warps = 0, by_blocks = 0, by_shared = 0, by_registers = -1;
  std::string limited_by;  // those limits equal to blocks_per_sm, in that order, joined by ", ":
                           // "warps", "blocks", "registers", "shared memory"
};

// Blocks per SM that the registers allow (cudaOccMaxBlocksPerSMRegsLimit): 0 when a block
// cannot launch (more than max_registers_per_thread, or more than registers_per_block).
int blocks_by_registers(const model::Arch& arch, int registers_per_thread, std::uint64_t threads_per_block);

Occupancy occupancy(const model::Arch& arch, std::uint64_t shared_bytes, std::uint64_t threads_per_block,
                    int registers_per_thread = 0);

}  // namespace warpscope::analysis
