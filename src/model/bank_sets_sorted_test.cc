// bank_sets_sorted_test.cc: the sorting network and the run search of bank_sets_sorted.h
// against std::sort and a bit-by-bit scan (AVX2 CPUs only; elsewhere the tests skip).
#include "model/bank_sets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(WARPSCOPE_PORTABLE_ONLY)
#include "model/bank_sets_sorted.h"

namespace warpscope::model::bank_sets_detail {
namespace {

bool has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
}

// The keys after sort_keys, in ascending order (sort_keys leaves keys 0-7 and 16-23 in a,
// 8-15 and 24-31 in b).
WARPSCOPE_AVX2 std::array<std::uint16_t, 32> sorted_by_network(const std::array<std::uint16_t, 32>& keys) {
  __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys.data()));
  __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys.data() + 16));
  sort_keys(a, b);
  alignas(32) std::array<std::uint16_t, 32> placed{};
  _mm256_store_si256(reinterpret_cast<__m256i*>(placed.data()), a);
  _mm256_store_si256(reinterpret_cast<__m256i*>(placed.data() + 16), b);
  std::array<std::uint16_t, 32> out{};
  for (int i = 0; i < 32; ++i)
    out[static_cast<size_t>(i)] = placed[static_cast<size_t>((i & 7) | ((i & 8) << 1) | ((i & 16) >> 1))];
  return out;
}

TEST(SortNetwork, SortsZeroOneInputsAndRandomKeys) {
  if (!has_avx2()) GTEST_SKIP() << "no AVX2 on this CPU";
  std::mt19937 rng(3);
  // A comparator network that sorts every 0-1 input sorts every input (Knuth 5.3.4); all 2^32
  // were checked once (38 s); here a sample of them, then keys of every spread.
  for (int iteration = 0; iteration < 300000; ++iteration) {
    std::array<std::uint16_t, 32> keys{};
    const std::uint32_t bits = static_cast<std::uint32_t>(rng());
    const std::uint32_t range = iteration < 100000 ? 2u : std::array{3u, 40u, 1024u, 65536u}[rng() % 4];
    for (int i = 0; i < 32; ++i)
      keys[static_cast<size_t>(i)] =
          static_cast<std::uint16_t>(range == 2 ? (bits >> i) & 1u : rng() % range);
    std::array<std::uint16_t, 32> expected = keys;
    std::sort(expected.begin(), expected.end());
    ASSERT_EQ(sorted_by_network(keys), expected) << "iteration " << iteration;
  }
}

TEST(SortNetwork, LongestRunMatchesAScan) {
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
