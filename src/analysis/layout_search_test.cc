// layout_search_test.cc: the search on recorded accesses of a 32x32 float transpose tile,
// the remapping of addresses, the recorder's counting, and occupancy.
#include <gtest/gtest.h>

#include "model/test_util.h"

#include <algorithm>

#include "analysis/layout_fix.h"
#include "analysis/layout_search.h"
#include "analysis/occupancy.h"
#include "analysis/remap_listener.h"
#include "analysis/shared_access_recorder.h"

namespace warpscope::analysis {
namespace {

using model::testing::sm90;

// Lane L at base + L * stride (model/test_util.h builds it).
model::WarpAccess access(model::MemOp op, int width, std::uint64_t base, std::uint64_t stride) {
  return model::testing::make_access(op, width, [&](int lane) { return base + static_cast<std::uint64_t>(lane) * stride; });
}

// float tile[32][32] at shared offset `base`: 32 row stores (one per warp and row) and 32
// column loads, as transpose_tiled.cu does per block.
std::vector<RecordedAccess> transpose_accesses(std::uint64_t base, std::uint64_t elem) {
  std::vector<RecordedAccess> out;
  const auto w = static_cast<int>(elem);
  for (std::uint64_t r = 0; r < 32; ++r) {
    out.push_back({1, access(model::MemOp::SharedStore, w, base + r * 32 * elem, elem), 1});
    out.push_back({2, access(model::MemOp::SharedLoad, w, base + r * elem, 32 * elem), 1});
  }
  return out;
}

TEST(LayoutSearch, FindsAConflictFreeLayoutForTheTransposeTile) {
  const emu::Region tile{"tile", model::Space::Shared, 0, 4096};
  const ArraySearch s = search_layouts(sm90(), tile, transpose_accesses(0, 4));
  EXPECT_EQ(s.elem_bytes, 4u);
  EXPECT_EQ(s.before, 32u * 1 + 32u * 32);  // stores conflict-free, loads 32-way
  EXPECT_EQ(s.ideal, 64u);
  ASSERT_FALSE(s.best.empty());
  EXPECT_EQ(s.best[0].wavefronts, 64u);
  EXPECT_EQ(s.best[0].extra_bytes, 0u);  // a swizzle ranks before the equally good padding
  ASSERT_TRUE(std::holds_alternative<layout::Swizzle>(s.best[0].layout));
  const auto sw = std::get<layout::Swizzle>(s.best[0].layout);
  EXPECT_EQ(sw.bits, 5);
  EXPECT_EQ(sw.base, 2);
  const LayoutCandidate* padding = nullptr;
  for (const auto& c : s.best)
    if (padding == nullptr && std::holds_alternative<layout::Padding>(c.layout)) padding = &c;
  ASSERT_NE(padding, nullptr) << "the best few show other kinds too";
  EXPECT_EQ(padding->wavefronts, 64u);
  EXPECT_EQ(std::get<layout::Padding>(padding->layout).row_bytes, 128u);  // float tile[32][33]
  EXPECT_EQ(std::get<layout::Padding>(padding->layout).pad_bytes, 4u);
  EXPECT_EQ(padding->extra_bytes, 128u);
  // Ranked: never worse than the one before.
  for (std::size_t i = 1; i < s.best.size(); ++i) EXPECT_GE(s.best[i].wavefronts, s.best[i - 1].wavefronts);
}

TEST(LayoutSearch, DoublesNeedEightByteAlignedLayouts) {
  const emu::Region tile{"tile", model::Space::Shared, 1024, 8192};  // not at offset 0
  const ArraySearch s = search_layouts(sm90(), tile, transpose_accesses(1024, 8));
  EXPECT_EQ(s.elem_bytes, 8u);
  ASSERT_FALSE(s.best.empty());
  EXPECT_EQ(s.best[0].wavefronts, 32u * 2 + 32u * 2);  // half-warp phases: 2 per instruction
  for (const auto& c : s.best)
    if (const auto* p = std::get_if<layout::Padding>(&c.layout)) EXPECT_EQ(p->pad_bytes % 8, 0u);
}

TEST(LayoutSearch, NoConflictsNothingToSearch) {
  const emu::Region tile{"tile", model::Space::Shared, 0, 4096};
  std::vector<RecordedAccess> rows;
  for (std::uint64_t r = 0; r < 32; ++r) rows.push_back({1, access(model::MemOp::SharedLoad, 4, r * 128, 4), 3});
  const ArraySearch s = search_layouts(sm90(), tile, rows);
  EXPECT_EQ(s.before, 96u);
  EXPECT_EQ(s.before, s.ideal);
  EXPECT_TRUE(s.best.empty());
}

TEST(LayoutSearch, CandidatesIncludeTheTmaModesAndSkip_SwizzlesThatDoNotFit) {
  int tma = 0;
  for (const auto& l : candidate_layouts(8192, 16))
    if (const auto* s = std::get_if<layout::Swizzle>(&l)) {
      EXPECT_GE(s->base, 4) << "never splits a 16-byte element";
      EXPECT_TRUE(layout::swizzle_fits(*s, 8192));
      tma += !layout::tma_mode(*s).empty();
    }
  EXPECT_EQ(tma, 3);
  EXPECT_TRUE(candidate_layouts(4096, 12).empty());  // not a power of two: no candidates
}

// float tile[24][24] (96-byte rows, 2304 B): rows written by 24 lanes, columns read by 24.
// A column's words 24 r + c fall in 4 banks, 6 rows each: 6 wavefronts (ideal 1).
TEST(LayoutSearch, RowsThatAreNotPowersOfTwoGetPaddingAndOnlyBijectiveSwizzles) {
  const emu::Region tile{"tile", model::Space::Shared, 0, 2304};
  std::vector<RecordedAccess> accesses;
  for (std::uint64_t i = 0; i < 24; ++i) {
    auto row = access(model::MemOp::SharedStore, 4, i * 96, 4);
    auto column = access(model::MemOp::SharedLoad, 4, i * 4, 96);
    row.mask = column.mask = 0x00ffffffu;
    accesses.push_back({1, row, 1});
    accesses.push_back({2, column, 1});
  }
  const ArraySearch s = search_layouts(sm90(), tile, accesses, SearchLimits{8});
  EXPECT_EQ(s.before, 24u * 1 + 24u * 6);
  EXPECT_EQ(s.ideal, 48u);
  ASSERT_FALSE(s.best.empty());
  EXPECT_EQ(s.best[0].wavefronts, 48u) << layout::describe(s.best[0].layout);
  // float tile[24][25] is among the candidates, and conflict-free.
  const layout::Layout pad96 = layout::Padding{96, 4};
  bool tried = false;
  for (const layout::Layout& l : candidate_layouts(2304, 4))
    if (const auto* p = std::get_if<layout::Padding>(&l); p != nullptr && p->row_bytes == 96 && p->pad_bytes == 4)
      tried = true;
  EXPECT_TRUE(tried);
  EXPECT_EQ(price_under(sm90(), tile, accesses, pad96, 4), 48u);
  // Every swizzle tried is a bijection on the 576 elements; 48 x 48 floats get 192-byte rows.
  for (const layout::Layout& l : candidate_layouts(2304, 4)) {
    if (!std::holds_alternative<layout::Swizzle>(l)) continue;
    std::vector<bool> hit(576, false);
    for (std::uint64_t e = 0; e < 576; ++e) {
      const std::uint64_t to = layout::apply(l, e * 4);
      ASSERT_LT(to, 2304u) << layout::describe(l);
      ASSERT_EQ(to % 4, 0u);
      hit[to / 4] = true;
    }
    EXPECT_EQ(std::count(hit.begin(), hit.end(), true), 576) << layout::describe(l);
  }
  bool pad192 = false;
  for (const layout::Layout& l : candidate_layouts(48 * 48 * 4, 4))
    if (const auto* p = std::get_if<layout::Padding>(&l); p != nullptr && p->row_bytes == 192 && p->pad_bytes == 4)
      pad192 = true;
  EXPECT_TRUE(pad192) << "float tile[48][49]";
}

TEST(RemapListener, MovesOnlyTheArraysLanesByTheirOriginalAddresses) {
  // Two arrays back to back; padding the first must not push its lanes into the second's remap.
  const std::vector<RegionRemap> remaps{{0, 4096, layout::Padding{128, 4}}, {4096, 4096, layout::Swizzle{5, 2, 5}}};
  model::WarpAccess a = access(model::MemOp::SharedLoad, 4, 0, 128);
  a.address[31] = 4096 + 128;  // a lane in the second array
  const model::WarpAccess moved = remap_access(a, remaps);
  EXPECT_EQ(moved.address[1], 132u);
  EXPECT_EQ(moved.address[30], 30u * 132);  // 3960 + ... stays in the first array's map
  EXPECT_EQ(moved.address[31], 4096u + 128 + 4);
}

TEST(RemapListener, WideLanesMustStayWhole) {
  // A skew of 4-byte elements under 8-byte lanes: row 1's lane 15 holds columns 30 and 31,
  // which move to 31 and 0.
  const RegionRemap skew{0, 4096, layout::Skew{128, 4}};
  EXPECT_FALSE(keeps_lanes_whole(access(model::MemOp::SharedLoad, 8, 128, 8), skew, 4));
  EXPECT_TRUE(keeps_lanes_whole(access(model::MemOp::SharedLoad, 8, 128, 8), {0, 4096, layout::Padding{128, 4}}, 4));
  EXPECT_TRUE(keeps_lanes_whole(access(model::MemOp::SharedLoad, 4, 128, 8), skew, 4));
}

TEST(SharedAccessRecorder, CountsRepeatedAccessesOnce) {
  SharedAccessRecorder rec;
  emu::AccessEvent e;
  e.pc = 3;
  e.region = 0;
  e.access = access(model::MemOp::SharedLoad, 4, 0, 128);
  rec.on_access(e);
  rec.on_access(e);
  e.access.address[0] = 4;
  rec.on_access(e);
  e.access.op = model::MemOp::GlobalLoad;  // not shared: ignored
  rec.on_access(e);
  SharedAccessRecorder other;
  other.on_access(e);
  rec.merge(other);
  const auto by_region = rec.by_region();
  ASSERT_EQ(by_region.size(), 1u);
  ASSERT_EQ(by_region.at(0).size(), 2u);
  EXPECT_EQ(by_region.at(0)[0].count, 2u);
  EXPECT_EQ(by_region.at(0)[1].count, 1u);
}

TEST(Occupancy, SharedMemoryLimitsOnlyWhenItBinds) {
  const Occupancy small = occupancy(sm90(), 4096, 256);
  EXPECT_EQ(small.shared_per_block, 5120u);
  EXPECT_EQ(small.blocks_per_sm, 8);
  EXPECT_EQ(small.warps_per_sm, 64);
  EXPECT_EQ(small.limited_by, "warps");
  // 2 blocks fit in 228 KiB at 113 KiB each (plus 1 KiB reserve); padding past it leaves one.
  EXPECT_EQ(occupancy(sm90(), 113 * 1024, 128).blocks_per_sm, 2);
  const Occupancy padded = occupancy(sm90(), 113 * 1024 + 512, 128);
  EXPECT_EQ(padded.blocks_per_sm, 1);
  EXPECT_EQ(padded.limited_by, "shared memory");
}

TEST(ArrayName, DemanglesFunctionStatics) {
  EXPECT_EQ(array_name("_ZZ19transpose_tiled_f32E4tile"), "tile");
  EXPECT_EQ(array_name("_ZZ16transpose_paddedIfEvPT_PKS0_iE4tile"), "tile");
  EXPECT_EQ(array_name("smem"), "smem");
}

// A rewrite that saves almost nothing is not offered: 2 excess wavefronts in 4,000.
TEST(LayoutSearch, ALayoutMustSaveTheMinimumGain) {
  const emu::Region bins{"bins", model::Space::Shared, 0, 256};
  std::vector<RecordedAccess> accesses{{1, access(model::MemOp::SharedLoad, 4, 0, 4), 4000},
                                       {2, access(model::MemOp::SharedLoad, 4, 0, 8), 2}};  // 2-way: 2 wavefronts
  const ArraySearch strict = search_layouts(sm90(), bins, accesses);
  EXPECT_EQ(strict.before, 4004u);
  EXPECT_TRUE(strict.best.empty());
  EXPECT_GT(strict.too_small, 0u);
  const ArraySearch any = search_layouts(sm90(), bins, accesses, SearchLimits{5, ~std::uint64_t{0}, 0.0});
  ASSERT_FALSE(any.best.empty());
  EXPECT_EQ(any.best[0].wavefronts, 4002u);
  EXPECT_EQ(required_gain(4004, 0.01), 41u);
  EXPECT_EQ(required_gain(10, 0.01), 1u);
}

// No layout takes the block past its shared-memory limit: a padding of a large array that
// would is left out, and a swizzle (no extra bytes) is offered instead.
TEST(LayoutSearch, NoLayoutPassesTheSharedMemoryLimit) {
  const emu::Region tile{"tile", model::Space::Shared, 0, 4096};
  const ArraySearch s = search_layouts(sm90(), tile, transpose_accesses(0, 4), SearchLimits{8, 64, 0.01});
  ASSERT_FALSE(s.best.empty());
  for (const auto& c : s.best) EXPECT_LE(c.extra_bytes, 64u) << layout::describe(c.layout);
  EXPECT_GT(s.over_limit, 0u);  // float tile[32][33] needs 128 more bytes
  EXPECT_TRUE(std::holds_alternative<layout::Swizzle>(s.best[0].layout));
}

}  // namespace
TEST(LayoutSearch, AHardwareLaidOutArrayTakesOnlyTheTmaSwizzleModes) {
  // 5136 bytes: tiles and an mbarrier, not a whole number of rows; the modes swizzle within rows.
  const auto all = candidate_layouts(5136, 4, true);
  ASSERT_EQ(all.size(), 3u);
  for (int b = 1; b <= 3; ++b) {
    const auto* s = std::get_if<layout::Swizzle>(&all[static_cast<std::size_t>(b - 1)]);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->bits, b);
    EXPECT_FALSE(layout::tma_mode(*s).empty());
  }
  // Smaller than a 128B period (1024 bytes): only the modes whose period fits.
  EXPECT_EQ(candidate_layouts(512, 4, true).size(), 2u);
}

}  // namespace warpscope::analysis
