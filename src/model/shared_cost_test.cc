// shared_cost_test.cc: worked examples of the shared-memory model, figure by figure.
#include "model/shared_cost.h"

#include <gtest/gtest.h>

#include "model/test_util.h"

namespace warpscope::model {
namespace {

using testing::make_access;
using testing::shared_of;

TEST(SharedCost, ConsecutiveFloatsTakeOneWavefront) {
  const auto c = shared_of(make_access(MemOp::SharedLoad, 4, [](int l) { return 4u * l; }));
  EXPECT_EQ(c.wavefronts, 1);
  EXPECT_EQ(c.ideal_wavefronts, 1);
  EXPECT_EQ(c.bank_conflicts(), 0);
  EXPECT_EQ(c.worst_degree, 1);
}

TEST(SharedCost, StrideTwoIsTwoWay) {
  const auto c = shared_of(make_access(MemOp::SharedLoad, 4, [](int l) { return 8u * l; }));
  EXPECT_EQ(c.wavefronts, 2);
  EXPECT_EQ(c.bank_conflicts(), 1);
  EXPECT_EQ(c.worst_bank, 0);
  EXPECT_EQ(c.colliding_lanes, (1u << 0) | (1u << 16));  // words 0 and 32
}

TEST(SharedCost, ColumnOfA32By32TileIs32Way) {
  const auto c = shared_of(make_access(MemOp::SharedLoad, 4, [](int l) { return 128u * l; }));
  EXPECT_EQ(c.wavefronts, 32);
  EXPECT_EQ(c.ideal_wavefronts, 1);
  EXPECT_EQ(c.worst_degree, 32);
  EXPECT_EQ(c.colliding_lanes, 0xffffffffu);
}

TEST(SharedCost, PaddingTo33ColumnsRemovesTheConflict) {
  const auto c = shared_of(make_access(MemOp::SharedLoad, 4, [](int l) { return 132u * l; }));
  EXPECT_EQ(c.wavefronts, 1);
}

TEST(SharedCost, BroadcastOfOneWordIsFree) {
  const auto c = shared_of(make_access(MemOp::SharedLoad, 4, [](int) { return 64u; }));
  EXPECT_EQ(c.wavefronts, 1);
  EXPECT_EQ(c.bank_conflicts(), 0);
}

TEST(SharedCost, BytesInOneWordShareIt) {
  const auto c = shared_of(make_access(MemOp::SharedLoad, 1, [](int l) { return 1u * l; }));
  EXPECT_EQ(c.wavefronts, 1);
  const auto strided = shared_of(make_access(MemOp::SharedLoad, 1, [](int l) { return 32u * l; }));
  EXPECT_EQ(strided.wavefronts, 8);  // 32 words in banks 0, 8, 16, 24
}

TEST(SharedCost, DoublesTakeTwoWavefrontsIdeally) {
  const auto c = shared_of(make_access(MemOp::SharedLoad, 8, [](int l) { return 8u * l; }));
  EXPECT_EQ(c.wavefronts, 2);
  EXPECT_EQ(c.ideal_wavefronts, 2);
  EXPECT_EQ(c.groups, 2);
}

TEST(SharedCost, Float4TakesFourWavefrontsIdeally) {
  const auto c = shared_of(make_access(MemOp::SharedLoad, 16, [](int l) { return 16u * l; }));
  EXPECT_EQ(c.wavefronts, 4);
  EXPECT_EQ(c.ideal_wavefronts, 4);
}

TEST(SharedCost, PairedWideLoadsUseDoubledGroups) {
  // lanes 2j and 2j+1 read the same double: partners L^1 agree, one group of 32 lanes
  const auto pairs = shared_of(make_access(MemOp::SharedLoad, 8, [](int l) { return 8u * (l / 2); }));
  EXPECT_EQ(pairs.wavefronts, 1);
  EXPECT_EQ(pairs.groups, 1);
  EXPECT_EQ(pairs.group_lanes, 32);
  // even lanes read 0, odd lanes 128: partners L^2 agree; two words in one bank
  const auto alternating = shared_of(make_access(MemOp::SharedLoad, 16, [](int l) { return l % 2 ? 128u : 0u; }));
  EXPECT_EQ(alternating.wavefronts, 4);  // half-warp groups, 2 each (textbook: 8)
  EXPECT_EQ(alternating.bank_conflicts(), 2);
  // lane L and L+16 agree, but neither L^1 nor L^2 does: no pairing
  const auto mirrored = shared_of(make_access(MemOp::SharedLoad, 8, [](int l) { return 8u * (l % 16); }));
  EXPECT_EQ(mirrored.wavefronts, 2);
  EXPECT_EQ(mirrored.group_lanes, 16);
}

TEST(SharedCost, StoresNeverPair) {
  const auto c = shared_of(make_access(MemOp::SharedStore, 16, [](int) { return 0u; }));
  EXPECT_EQ(c.wavefronts, 4);
  EXPECT_EQ(c.bank_conflicts(), 0);
}

TEST(SharedCost, InactiveLanesCostNothing) {
  const auto none = shared_of(make_access(MemOp::SharedLoad, 4, [](int l) { return 128u * l; }, 0));
  EXPECT_EQ(none.wavefronts, 0);
  EXPECT_EQ(none.ideal_wavefronts, 0);
  const auto half = shared_of(make_access(MemOp::SharedLoad, 16, [](int l) { return 16u * l; }, 0x0000ffffu));
  EXPECT_EQ(half.wavefronts, 2);
}

TEST(SharedCost, ValueReturningAtomicsSerializeOneAddress) {
  const auto c = shared_of(make_access(MemOp::SharedAtomic, 4, [](int) { return 0u; }));
  EXPECT_EQ(c.wavefronts, 32);
  EXPECT_EQ(c.bank_conflicts(), 31);
  const auto agg = shared_of(make_access(MemOp::SharedAtomicAggregated, 4, [](int) { return 0u; }));
  EXPECT_EQ(agg.wavefronts, 1);
}

TEST(SharedCost, LdmatrixPricesEachMatrixOnItsOwn) {
  // 8 rows of 16 bytes at a 128-byte pitch: all rows start in bank 0
  const auto x4 = shared_of(make_access(MemOp::LdMatrix, 4, [](int l) { return 128u * l; }));
  EXPECT_EQ(x4.wavefronts, 32);
  EXPECT_EQ(x4.ideal_wavefronts, 4);
  const auto x1 = shared_of(make_access(MemOp::LdMatrix, 1, [](int l) { return 16u * l; }));
  EXPECT_EQ(x1.wavefronts, 1);
}

TEST(SharedCost, ValidationNamesTheLane) {
  auto a = make_access(MemOp::SharedLoad, 16, [](int l) { return 16u * l; });
  a.address[7] = 8;
  auto c = price(testing::sm90(), a);
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.error().message, "lane 7: address 8 is not aligned to 16 bytes");
}

TEST(Arch, UnknownArchitectureListsKnownOnes) {
  auto a = find_arch("sm_35");
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.error().message, "unknown architecture 'sm_35' (known: sm_90)");
}

}  // namespace
}  // namespace warpscope::model

namespace warpscope::model {
namespace {

// price_shared divides by words per wavefront with a shift: every table must allow it.
TEST(SharedCost, EveryArchHasPowerOfTwoWavefrontAndBankBytes) {
  for (const Arch& arch : known_archs()) {
    EXPECT_EQ(__builtin_popcount(static_cast<unsigned>(arch.wavefront_bytes)), 1) << arch.name;
    EXPECT_EQ(__builtin_popcount(static_cast<unsigned>(arch.bank_bytes)), 1) << arch.name;
    EXPECT_GE(arch.wavefront_bytes, arch.bank_bytes) << arch.name;
  }
}

}  // namespace
}  // namespace warpscope::model

namespace warpscope::model {
namespace {

// 8-byte shared atomics (ATOMS.CAS.64, .EXCH.64, a 64-bit CAS loop's CAST.64): half-warps,
// lanes per bank (the rule the H200 measurement of corpus/sass/atomics_shared.cu checks).
TEST(SharedCost, EightByteAtomicsServeHalfWarpsAndCountLanes) {
  const auto distinct = shared_of(make_access(MemOp::SharedAtomic, 8, [](int l) { return 8u * l; }));
  EXPECT_EQ(distinct.groups, 2);
  EXPECT_EQ(distinct.wavefronts, 2);
  const auto one_word = shared_of(make_access(MemOp::SharedAtomic, 8, [](int) { return 64u; }));
  EXPECT_EQ(one_word.wavefronts, 32);  // 16 lanes in each half, serialized
  EXPECT_EQ(one_word.ideal_wavefronts, 2);
  const auto four_a_word = shared_of(make_access(MemOp::SharedAtomic, 8, [](int l) { return 8u * (l % 8); }));
  EXPECT_EQ(four_a_word.wavefronts, 4);  // each half: 8 words, 2 lanes each
}

}  // namespace
}  // namespace warpscope::model
