// price_cache_test.cc: the cache answers exactly what pricing would, hit or miss.
#include "model/price_cache.h"

#include <gtest/gtest.h>

#include <random>

#include "model/test_util.h"

namespace warpscope::model {
namespace {

using testing::make_access;
using testing::sm90;

TEST(PriceCache, ShiftedPatternHitsAndAgrees) {
  PriceCache cache;
  const auto a = make_access(MemOp::SharedLoad, 4, [](int l) { return 128u * l; });
  const auto b = make_access(MemOp::SharedLoad, 4, [](int l) { return 4096u + 128u * l; });
  EXPECT_EQ(cache.price(sm90(), a).shared->wavefronts, 32);
  EXPECT_EQ(cache.price(sm90(), b).shared->wavefronts, 32);
  EXPECT_EQ(cache.hits(), 1u);
}

TEST(PriceCache, RandomStreamAgreesWithPricing) {
  std::mt19937 rng(3);
  PriceCache cache;
  for (int i = 0; i < 5000; ++i) {
    // Few distinct patterns and bases, so hits and misses both happen.
    const int width = 1 << (rng() % 5);
    const MemOp op = rng() % 2 ? MemOp::SharedLoad : MemOp::GlobalLoad;
    const std::uint64_t stride = static_cast<std::uint64_t>(width) * (1u + rng() % 3);
    const std::uint64_t base = static_cast<std::uint64_t>(width) * (rng() % 3) * 32;
    const std::uint32_t mask = rng() % 4 ? 0xffffffffu : 0x0000ffffu;
    const auto a = make_access(op, width, [&](int l) { return base + stride * static_cast<std::uint64_t>(l); }, mask);
    const AccessCost& cached = cache.price(sm90(), a);
    const AccessCost fresh = price_valid(sm90(), a);
    if (fresh.shared) {
      ASSERT_EQ(cached.shared->wavefronts, fresh.shared->wavefronts);
      ASSERT_EQ(cached.shared->ideal_wavefronts, fresh.shared->ideal_wavefronts);
    } else {
      ASSERT_EQ(cached.global->sectors, fresh.global->sectors);
      ASSERT_EQ(cached.global->ideal_sectors, fresh.global->ideal_sectors);
      ASSERT_EQ(cached.global->lines, fresh.global->lines);
    }
  }
  EXPECT_GT(cache.hits(), 20u);
  EXPECT_GT(cache.misses(), 100u);
}

}  // namespace
}  // namespace warpscope::model
