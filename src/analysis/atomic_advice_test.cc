// atomic_advice_test.cc: hot-bin rewrites of shared atomics, priced on recorded accesses.
#include <gtest/gtest.h>

#include "analysis/atomic_advice.h"
#include "model/test_util.h"

namespace warpscope::analysis {
namespace {

using model::testing::sm90;

model::WarpAccess atom(std::function<std::uint64_t(int)> address) {
  return model::testing::make_access(model::MemOp::SharedAtomic, 4, std::move(address));
}

TEST(AtomicAdvice, RewritesMoveLanesAsTheCodeWould) {
  const AtomicRewrite aggregate{AtomicRewrite::Kind::Aggregate, 0, 1024, 4, 1, 0};
  // Lanes 0-15 on bin 3, 16-31 on bin 7: two lanes remain, the leaders 0 and 16.
  const auto hot = atom([](int l) { return std::uint64_t(l < 16 ? 12 : 28); });
  const auto merged = rewrite_atomic_access(aggregate, hot);
  ASSERT_EQ(merged.size(), 1u);
  EXPECT_EQ(merged[0].mask, 0x00010001u);
  const AtomicRewrite per_lane{AtomicRewrite::Kind::PerLane, 0, 1024, 4, 32, 0};
  const auto own = rewrite_atomic_access(per_lane, hot);
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].address[5], (3u * 32 + 5) * 4);  // h[3][5]
  // A store of the array (zeroing) becomes 32 rotated ones: step k, lane l writes copy (k + l) % 32.
  const auto zero = model::testing::make_access(model::MemOp::SharedStore, 4, [](int l) { return std::uint64_t(4 * l); });
  const auto copies = rewrite_atomic_access(per_lane, zero);
  ASSERT_EQ(copies.size(), 32u);
  EXPECT_EQ(copies[2].address[1], (1u * 32 + 3) * 4);
  const AtomicRewrite per_warp{AtomicRewrite::Kind::PerWarp, 0, 1000, 4, 4, 1024};
  EXPECT_EQ(rewrite_atomic_access(per_warp, hot, 3)[0].address[0], 12u + 3 * 1024);
  EXPECT_EQ(rewrite_atomic_access(per_warp, zero).size(), 4u);
  // Outside the array: untouched.
  const auto other = atom([](int l) { return std::uint64_t(4096 + 4 * l); });
  EXPECT_EQ(rewrite_atomic_access(aggregate, other)[0].mask, 0xffffffffu);
}

TEST(AtomicAdvice, HotBinsAreFoundAndWarpAggregationIsPriced) {
  const emu::Region bins{"s_hist", model::Space::Shared, 0, 1024};
  // Every warp sends all 32 lanes to one bin (value-returning): 32 wavefronts each, ideal 1.
  std::vector<RecordedAccess> accesses{{3, atom([](int) { return std::uint64_t(40); }), 100}};
  const auto advice = advise_atomics(sm90(), AtomicAdviceInputs{bins, accesses, 4, 8, "s_hist", "unsigned"});
  ASSERT_TRUE(advice);
  EXPECT_EQ(advice->before, 3200u);
  EXPECT_EQ(advice->same_address, 3100u);
  ASSERT_FALSE(advice->alternatives.empty());
  const AtomicAlternative& best = advice->alternatives.front();
  EXPECT_EQ(best.change, "warp-aggregated atomics");
  EXPECT_TRUE(best.offered);
  EXPECT_EQ(best.wavefronts, 100u);
  EXPECT_NE(best.code.find("__match_any_sync"), std::string::npos);
  for (const auto& a : advice->alternatives)
    if (a.change == "per-warp sub-histograms") EXPECT_FALSE(a.offered);
  // No atomics: no advice.
  std::vector<RecordedAccess> loads{{1, model::testing::make_access(model::MemOp::SharedLoad, 4,
                                                                    [](int l) { return std::uint64_t(128 * l); }), 1}};
  EXPECT_FALSE(advise_atomics(sm90(), AtomicAdviceInputs{bins, loads}));
  // A rewrite past the block's shared memory is not offered.
  const auto tight = advise_atomics(sm90(), AtomicAdviceInputs{bins, accesses, 4, 8, "s_hist", "unsigned", 0.01, 16});
  for (const auto& a : tight->alternatives)
    if (a.extra_bytes > 16) EXPECT_FALSE(a.offered) << a.change;
}

}  // namespace
}  // namespace warpscope::analysis
