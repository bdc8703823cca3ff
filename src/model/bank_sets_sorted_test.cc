// bank_sets_sorted_test.cc: the run search of bank_sets_sorted.h against a bit-by-bit scan
// (AVX2 CPUs only; elsewhere the test skips). The network: warp_simd_test.cc.
#include "model/bank_sets.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "model/test_util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(WARPSCOPE_PORTABLE_ONLY)
#include "model/bank_sets_sorted.h"

namespace warpscope::model::bank_sets_detail {
namespace {

using model::testing::has_avx2;

TEST(SortedCount, LongestRunMatchesAScan) {
  if (!has_avx2()) GTEST_SKIP() << "no AVX2 on this CPU";
  std::mt19937 rng(5);
  for (int iteration = 0; iteration < 200000; ++iteration) {
    // Random words, and words made of long runs; bit 0 clear, as count_sorted's (key 0 always
    // starts a set), so a run is at most 31 long.
    std::uint32_t ones = static_cast<std::uint32_t>(rng());
    if (iteration % 2 == 1) ones = ones | (ones >> (1 + rng() % 4)) | (ones << (1 + rng() % 3));
    ones &= ~1u;
    int length = 0, at = 0, best = 0, best_at = 0;
    for (int i = 0, run = 0; i < 32; ++i) {
      run = ((ones >> i) & 1u) != 0 ? run + 1 : 0;
      if (run > best) best = run, best_at = i - run + 1;
    }
    longest_run(ones, length, at);
    ASSERT_EQ(length, best) << std::hex << ones;
    if (best > 0) ASSERT_EQ(at, best_at) << std::hex << ones;
  }
}

}  // namespace
}  // namespace warpscope::model::bank_sets_detail

#endif
