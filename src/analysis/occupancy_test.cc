// occupancy_test.cc: the occupancy arithmetic against hand-computed cases of the CUDA
// occupancy calculator's rules (cuda_occupancy.h of CUDA 12 gives the same block counts).
#include <gtest/gtest.h>

#include "analysis/occupancy.h"

namespace warpscope::analysis {
namespace {

const model::Arch& sm90() { return **model::find_arch("sm_90"); }

TEST(OccupancyRegisters, BlocksByRegistersFollowTheCalculator) {
  // 32 regs: 1024 per warp; 16384 per sub-partition / 1024 = 16 warps, x4 = 64; / 8 = 8.
  EXPECT_EQ(blocks_by_registers(sm90(), 32, 256), 8);
  // 40 regs: 1280 per warp; 16384 / 1280 = 12 warps per sub-partition, 48 per SM; / 8 = 6.
  // (65536 / 1280 = 51 warps would say 6 too; the sub-partitions matter below.)
  EXPECT_EQ(blocks_by_registers(sm90(), 40, 256), 6);
  // 33 regs: 1056 rounds up to 1280, as 40.
  EXPECT_EQ(blocks_by_registers(sm90(), 33, 256), 6);
  // 168 regs, 3 warps: 5376 per warp; 16384 / 5376 = 3 per sub-partition, 12 per SM; / 3 = 4
  // (65536 / 5376 = 12 as well).
  EXPECT_EQ(blocks_by_registers(sm90(), 168, 96), 4);
  // 255 regs, 4 warps: 8160 -> 8192 per warp; 2 per sub-partition, 8 per SM; / 4 = 2.
  EXPECT_EQ(blocks_by_registers(sm90(), 255, 128), 2);
  // 96 regs, 20 warps: 3072 per warp; 16384 / 3072 = 5 per sub-partition (65536 / 3072 would
  // say 21), 20 per SM: one block.
  EXPECT_EQ(blocks_by_registers(sm90(), 96, 640), 1);
  EXPECT_EQ(blocks_by_registers(sm90(), 64, 1024), 1);  // exactly 65536 registers
}

TEST(OccupancyRegisters, BlocksThatCannotLaunch) {
  EXPECT_EQ(blocks_by_registers(sm90(), 65, 1024), 0);  // 2304 x 32 warps > 65536
  // 104 regs, 19 warps: 3328 x 19 = 63232 fits, but the hardware check rounds the warps up
  // to the 4 sub-partitions: 3328 x 20 = 66560 > 65536.
  EXPECT_EQ(blocks_by_registers(sm90(), 104, 608), 0);
  EXPECT_EQ(blocks_by_registers(sm90(), 256, 32), 0);  // above 255 per thread
}

TEST(OccupancyRegisters, NamesTheLimitThatBinds) {
  const Occupancy regs = occupancy(sm90(), 4096, 256, 40);
  EXPECT_EQ(regs.blocks_per_sm, 6);
  EXPECT_EQ(regs.warps_per_sm, 48);
  EXPECT_EQ(regs.by_registers, 6);
  EXPECT_EQ(regs.by_shared, 45);  // 228 KiB / 5120 B
  EXPECT_EQ(regs.by_warps, 8);
  EXPECT_EQ(regs.limited_by, "registers");
  const Occupancy tie = occupancy(sm90(), 4096, 256, 32);
  EXPECT_EQ(tie.blocks_per_sm, 8);
  EXPECT_EQ(tie.limited_by, "warps, registers");
  const Occupancy uncounted = occupancy(sm90(), 4096, 256);
  EXPECT_EQ(uncounted.by_registers, -1);
  EXPECT_EQ(uncounted.limited_by, "warps");
  // 40 KiB of shared (41984 B allocated): 5 blocks; 40 registers would allow 6.
  const Occupancy shared = occupancy(sm90(), 40 * 1024, 256, 40);
  EXPECT_EQ(shared.blocks_per_sm, 5);
  EXPECT_EQ(shared.limited_by, "shared memory");
  EXPECT_EQ(occupancy(sm90(), 0, 1024, 65).blocks_per_sm, 0);
}

}  // namespace
}  // namespace warpscope::analysis
