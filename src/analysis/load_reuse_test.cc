// load_reuse_test.cc: an unrolled loop's loads that ptxas kept in registers.
#include "analysis/load_reuse.h"

#include <gtest/gtest.h>

namespace warpscope::analysis {
namespace {

emu::AccessEvent load(std::uint64_t base, model::MemOp op = model::MemOp::SharedLoad, int warp = 0,
                      std::uint32_t mask = 0xffffffffu) {
  emu::AccessEvent e;
  e.warp = warp;
  e.access.op = op;
  e.access.width = 4;
  e.access.mask = mask;
  for (int l = 0; l < 32; ++l) e.access.address[static_cast<std::size_t>(l)] = base + 4u * l;
  return e;
}

TEST(LoadReuse, AnAddressLoadedAgainIsHeld) {
  // sepconv_rows: iteration s+1's first tap reads iteration s's last (ptxas: 65 LDS, not 68).
  LoadReuse r;
  int ran = 0;
  for (int s = 0; s < 4; ++s)
    for (int j = 0; j <= 16; ++j) ran += !r.reused(load(64u * s + 4u * j), 0, 65);
  EXPECT_EQ(ran, 65);
}

TEST(LoadReuse, OtherLanesOtherWarpsAndOtherGroupsLoadAgain) {
  LoadReuse r;
  EXPECT_FALSE(r.reused(load(0), 0, 8));
  EXPECT_FALSE(r.reused(load(0, model::MemOp::SharedLoad, 0, 0xffffu), 0, 8));  // other lanes
  EXPECT_FALSE(r.reused(load(0, model::MemOp::SharedLoad, 1), 0, 8));            // another warp
  EXPECT_FALSE(r.reused(load(0), 1, 8));                                          // another register
  EXPECT_TRUE(r.reused(load(0), 0, 8));
}

TEST(LoadReuse, AHoistedLoadIsHeldForFewerLanes) {
  // A loop whose lanes leave one by one: ptxas's one LDS before it served all of them.
  LoadReuse r;
  EXPECT_FALSE(r.reused(load(0), 2, 1, true));
  EXPECT_TRUE(r.reused(load(0, model::MemOp::SharedLoad, 0, 0xffffu), 2, 1, true));  // fewer lanes
  EXPECT_TRUE(r.reused(load(0, model::MemOp::SharedLoad, 0, 0x1u), 2, 1, true));
  EXPECT_FALSE(r.reused(load(4), 2, 1, true));  // other addresses: the next loop entry
  EXPECT_FALSE(r.reused(load(0, model::MemOp::SharedLoad, 0, 0xffu), 2, 1, true));  // the old one was forgotten
  r.end_round(0, 0);  // a barrier
  EXPECT_FALSE(r.reused(load(0, model::MemOp::SharedLoad, 0, 0x1u), 2, 1, true));
  EXPECT_FALSE(r.reused(load(0), 2, 1, true));  // more lanes than held
}

TEST(LoadReuse, BarriersAndStoresOfTheSpaceForget) {
  LoadReuse r;
  EXPECT_FALSE(r.reused(load(0), 0, 8));
  r.end_round(0, 0);
  EXPECT_FALSE(r.reused(load(0), 0, 8));
  r.store(load(512, model::MemOp::GlobalStore));  // another space: still held
  EXPECT_TRUE(r.reused(load(0), 0, 8));
  r.store(load(512, model::MemOp::SharedStore));
  EXPECT_FALSE(r.reused(load(0), 0, 8));
  r.end_block(0);
  EXPECT_FALSE(r.reused(load(0), 0, 8));
}

TEST(LoadReuse, ALoopUnrolledOnlySoFarLoadsAgainInTheNextStretch) {
  // 4 SASS loads: once the warp has loaded 4 addresses it starts over.
  LoadReuse r;
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(r.reused(load(4u * i), 0, 4));
  EXPECT_FALSE(r.reused(load(16), 0, 4));
  EXPECT_FALSE(r.reused(load(0), 0, 4));  // forgotten with the last stretch
  EXPECT_TRUE(r.reused(load(16), 0, 4));
}

}  // namespace
}  // namespace warpscope::analysis
