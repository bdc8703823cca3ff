// warp_simd_test.cc: the sorting network of warp_simd.h against std::sort, and
// equal_to_previous against a scan (AVX2 CPUs only; elsewhere the tests skip).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>

#include "model/test_util.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(WARPSCOPE_PORTABLE_ONLY)
#include "model/warp_simd.h"

namespace warpscope::model::simd {
namespace {

using model::testing::has_avx2;

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
    out[static_cast<size_t>(i)] = placed[static_cast<size_t>(sorted_place(i))];
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

// Bit i of equal_to_previous: sorted key i >> shift equals key i - 1 >> shift (key 0 against 0).
WARPSCOPE_AVX2 std::uint32_t marks_by_network(const std::array<std::uint16_t, 32>& keys, int shift) {
  __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys.data()));
  __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(keys.data() + 16));
  sort_keys(a, b);
  return equal_to_previous(a, b, previous_keys(a, b), shift);
}

TEST(SortNetwork, EqualToPreviousMatchesAScan) {
  if (!has_avx2()) GTEST_SKIP() << "no AVX2 on this CPU";
  std::mt19937 rng(7);
  for (int iteration = 0; iteration < 20000; ++iteration) {
    std::array<std::uint16_t, 32> keys{};
    const std::uint32_t range = std::array{2u, 40u, 1024u, 65536u}[rng() % 4];
    for (auto& k : keys) k = static_cast<std::uint16_t>(rng() % range);
    std::array<std::uint16_t, 32> sorted = keys;
    std::sort(sorted.begin(), sorted.end());
    for (int shift : {0, 1, 5, 10}) {
      std::uint32_t expected = (sorted[0] >> shift) == 0 ? 1u : 0u;
      for (int i = 1; i < 32; ++i)
        expected |= static_cast<std::uint32_t>((sorted[static_cast<size_t>(i)] >> shift) ==
                                               (sorted[static_cast<size_t>(i - 1)] >> shift))
                    << i;
      ASSERT_EQ(marks_by_network(keys, shift), expected) << "iteration " << iteration << " shift " << shift;
    }
  }
}

}  // namespace
}  // namespace warpscope::model::simd

#endif
