// global_cost_test.cc: sectors, lines and the cause of excess, by example.
#include "model/global_cost.h"

#include <gtest/gtest.h>

#include "model/test_util.h"

namespace warpscope::model {
namespace {

using testing::global_of;
using testing::make_access;

TEST(GlobalCost, CoalescedFloats) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return 4u * l; }));
  EXPECT_EQ(c.requests, 1);
  EXPECT_EQ(c.sectors, 4);
  EXPECT_EQ(c.ideal_sectors, 4);
  EXPECT_EQ(c.lines, 1);
  EXPECT_DOUBLE_EQ(c.efficiency(), 1.0);
  EXPECT_EQ(c.cause, Coalescing::Coalesced);
}

TEST(GlobalCost, StrideTwoHalvesEfficiency) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return 8u * l; }));
  EXPECT_EQ(c.sectors, 8);
  EXPECT_EQ(c.ideal_sectors, 4);
  EXPECT_DOUBLE_EQ(c.efficiency(), 0.5);
  EXPECT_EQ(c.cause, Coalescing::Stride);
}

TEST(GlobalCost, MisalignedBaseCostsOneSector) {
  const auto c = global_of(make_access(MemOp::GlobalStore, 4, [](int l) { return 4u + 4u * l; }));
  EXPECT_EQ(c.sectors, 5);
  EXPECT_EQ(c.lines, 2);
  EXPECT_EQ(c.cause, Coalescing::Misalignment);
}

TEST(GlobalCost, ScatterIsNamed) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return (l * 7919u % 32u) * 256u; }));
  EXPECT_EQ(c.sectors, 32);
  EXPECT_EQ(c.cause, Coalescing::Scatter);  // lanes out of order: no stride in lane order
  const auto s = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return l * l * 64u; }));
  EXPECT_EQ(s.cause, Coalescing::Scatter);
}

TEST(GlobalCost, BroadcastMovesOneSector) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 16, [](int) { return 512u; }));
  EXPECT_EQ(c.sectors, 1);
  EXPECT_EQ(c.bytes_requested, 16u);
  EXPECT_EQ(c.ideal_sectors, 1);
}

TEST(GlobalCost, IdealCountsEveryLanesBytesAsNcuDoes) {
  // lanes 2j and 2j+1 read the same float, 32 bytes apart per pair: 16 sectors; ncu's ideal
  // packs all 32 lanes' 4 bytes (4 sectors), not just the 16 distinct floats (2 sectors).
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return 32u * (l / 2); }));
  EXPECT_EQ(c.sectors, 16);
  EXPECT_EQ(c.ideal_sectors, 4);
  EXPECT_EQ(c.bytes_requested, 64u);
}

TEST(GlobalCost, NoActiveLaneNoRequest) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return 4u * l; }, 0));
  EXPECT_EQ(c.requests, 0);
  EXPECT_EQ(c.sectors, 0);
}

}  // namespace
}  // namespace warpscope::model
