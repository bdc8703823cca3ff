// bank_sets_test.cc: the fast count (SIMD where the CPU has it, and portable) against a
// literal per-bank count of distinct words (or lanes), on random groups of every shape.
#include "model/bank_sets.h"

#include <gtest/gtest.h>

#include <array>
#include <random>
#include <set>

namespace warpscope::model {
namespace {

// The busiest bank's distinct words (or lanes), counted word by word (no bank sets, no
// bit tricks).
struct Reference {
  int wavefronts = 0, distinct = 0, worst_bank = -1;
};

Reference reference(const std::array<std::uint64_t, 32>& address, int first, int lanes, std::uint32_t mask,
                    int words_per_lane, BankLoad load) {
  std::array<std::set<std::uint64_t>, 32> words;
  std::array<int, 32> lanes_of_bank{};
  for (int l = first; l < first + lanes; ++l)
    if ((mask >> l) & 1u)
      for (int w = 0; w < words_per_lane; ++w) {
        const std::uint64_t word = address[static_cast<size_t>(l)] / 4 + static_cast<std::uint64_t>(w);
        words[word % 32].insert(word);
        ++lanes_of_bank[word % 32];
      }
  Reference r;
  for (int b = 0; b < 32; ++b) {
    const int distinct = static_cast<int>(words[static_cast<size_t>(b)].size());
    const int n = load == BankLoad::Lanes ? lanes_of_bank[static_cast<size_t>(b)] : distinct;
    r.distinct += distinct;
    if (n > r.wavefronts) {
      r.wavefronts = n;
      r.worst_bank = b;
    }
  }
  return r;
}

// Addresses of one of several kinds, aligned to the access width.
std::array<std::uint64_t, 32> random_addresses(std::mt19937& rng, int width) {
  std::array<std::uint64_t, 32> a{};
  const int kind = static_cast<int>(rng() % 9);
  // kind 5 straddles 4 GiB: rows within the 64-row window, high halves of the addresses differ;
  // kind 6 straddles 256 KiB (the sorting path's window; the 64-row table counts it)
  const std::uint64_t base = kind == 5 ? (1ull << 32) - 2048 : kind == 6 ? (256u << 10) - 2048 : (rng() % 4096) * 16;
  const std::uint64_t stride = static_cast<std::uint64_t>(width) << (rng() % 7);
  const std::uint64_t span = kind == 4 ? 65536 : 8192;  // kind 4 spreads past the 64-row window
  // kinds 7 and 8: a few addresses (2 to 9), lane l taking pool[l % n] (periodic: lanes
  // 4 apart agree, which a check that compares lanes only 4 or 8 apart would miss) or any
  std::array<std::uint64_t, 9> pool{};
  for (auto& p : pool) p = base + rng() % span;
  const int pool_size = 2 + static_cast<int>(rng() % 8);
  for (int l = 0; l < 32; ++l) {
    std::uint64_t x = 0;
    switch (kind) {
      case 0: x = base + static_cast<std::uint64_t>(l) * stride; break;           // strided
      case 1: x = base + static_cast<std::uint64_t>(l / (1 + static_cast<int>(rng() % 4))) * 4; break;  // shared words
      case 2: x = base; break;                                                     // broadcast
      case 5: x = base + static_cast<std::uint64_t>(l) * 128; break;              // across 4 GiB
      case 6: x = base + rng() % 4096; break;                                      // across 256 KiB
      case 7: x = pool[static_cast<size_t>(l % pool_size)]; break;                 // periodic
      case 8: x = pool[rng() % static_cast<std::uint32_t>(pool_size)]; break;      // a few addresses
      default: x = base + rng() % span; break;                                     // random
    }
    a[static_cast<size_t>(l)] = x / static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(width);
  }
  return a;
}

TEST(BankSets, FastAndPortableMatchTheLiteralCount) {
  std::mt19937 rng(7);
  int counted = 0, declined = 0;
  for (int iteration = 0; iteration < 20000; ++iteration) {
    const int width = std::array{1, 2, 4, 8, 16}[rng() % 5];
    const int words_per_lane = width >= 4 ? width / 4 : 1;
    const int group_lanes = std::array{8, 16, 32}[rng() % 3];
    const auto address = random_addresses(rng, width);
    std::uint32_t mask = rng() % 3 == 0 ? static_cast<std::uint32_t>(rng()) : 0xffffffffu;
    if (mask == 0) mask = 1;
    const BankLoad bank_load = rng() % 4 == 0 ? BankLoad::Lanes : BankLoad::DistinctWords;
    std::array<BankSetLoad, 4> fast{}, portable{};
    const std::uint32_t got = count_bank_sets(address.data(), 32, group_lanes, mask, words_per_lane, bank_load, fast.data());
    const std::uint32_t got_portable =
        count_bank_sets_portable(address.data(), 32, group_lanes, mask, words_per_lane, bank_load, portable.data());
    // For distinct words the SIMD version counts whatever the portable one does (and 32-lane
    // groups whose rows span 64 or more, by sorting; lanes it counts by sorting only). Each
    // counted group must match the literal count.
    if (bank_load == BankLoad::DistinctWords) {
      ASSERT_EQ(got_portable & ~got, 0u) << "iteration " << iteration;
    }
    // The whole-warp counter (price_shared's common path) counts what count_bank_sets does,
    // priced: wavefronts, the ideal (distinct words / 32) and the worst bank and lanes.
    if (group_lanes == 32) {
      SharedCost whole;
      const bool counted_whole = warp_counter(words_per_lane)(address.data(), mask, bank_load, 5, whole);
      ASSERT_EQ(counted_whole, got == 1u) << "iteration " << iteration;
      if (counted_whole) {
        ASSERT_EQ(whole.wavefronts, fast[0].wavefronts) << "iteration " << iteration;
        ASSERT_EQ(whole.ideal_wavefronts, (fast[0].distinct_words + 31) / 32) << "iteration " << iteration;
        ASSERT_EQ(whole.worst_bank, fast[0].worst_bank) << "iteration " << iteration;
        ASSERT_EQ(whole.colliding_lanes, fast[0].worst_lanes) << "iteration " << iteration;
        ASSERT_EQ(whole.groups, 1);
      }
    }
    for (int g = 0; g < 32 / group_lanes; ++g) {
      const std::uint32_t group_mask = mask & (group_lanes == 32 ? ~0u : ((1u << group_lanes) - 1u) << (g * group_lanes));
      const Reference r = reference(address, g * group_lanes, group_lanes, mask, words_per_lane, bank_load);
      for (const auto& [counted_by, load] : {std::pair{got, fast[static_cast<size_t>(g)]},
                                             std::pair{got_portable, portable[static_cast<size_t>(g)]}}) {
        if (!((counted_by >> g) & 1u)) {
          ++declined;
          continue;
        }
        ++counted;
        ASSERT_NE(group_mask, 0u);
        ASSERT_EQ(load.wavefronts, r.wavefronts) << "iteration " << iteration << " group " << g;
        ASSERT_EQ(load.distinct_words, r.distinct) << "iteration " << iteration;
        if (r.wavefronts > 1 || bank_load == BankLoad::Lanes) {
          ASSERT_EQ(load.worst_bank, r.worst_bank) << "iteration " << iteration;
          // The named lanes are exactly the active lanes of the group touching that bank
          // (for lanes: always, a single lane too).
          std::uint32_t lanes = 0;
          for (int l = 0; l < 32; ++l)
            if ((group_mask >> l) & 1u)
              for (int w = 0; w < words_per_lane; ++w)
                if ((address[static_cast<size_t>(l)] / 4 + static_cast<std::uint64_t>(w)) % 32 ==
                    static_cast<std::uint64_t>(r.worst_bank))
                  lanes |= 1u << l;
          ASSERT_EQ(load.worst_lanes, lanes) << "iteration " << iteration;
        } else {
          ASSERT_EQ(load.worst_lanes, 0u);
        }
      }
    }
  }
  // Both outcomes occur: the test exercises the fast path and its refusals.
  EXPECT_GT(counted, 20000);
  EXPECT_GT(declined, 100);
}

// 16-byte lanes, groups of 8: group 1's two active lanes share set 0 (rows 0 and 1: two
// wavefronts). Its inactive lanes are filled with lane 0's address (set 1) on the way; that
// set must not count as one of group 1's, or the group looks conflict-free.
TEST(BankSets, AnInactiveLaneLendsNoSet) {
  std::array<std::uint64_t, 32> a{};
  a[0] = 16;
  a[8] = 0;
  a[9] = 128;
  const std::uint32_t mask = 1u | 1u << 8 | 1u << 9;
  for (const bool portable : {false, true}) {
    std::array<BankSetLoad, 4> out{};
    const std::uint32_t counted = portable ? count_bank_sets_portable(a.data(), 32, 8, mask, 4, BankLoad::DistinctWords, out.data())
                                           : count_bank_sets(a.data(), 32, 8, mask, 4, BankLoad::DistinctWords, out.data());
    ASSERT_EQ(counted, 0b11u) << portable;
    EXPECT_EQ(out[0].wavefronts, 1) << portable;
    EXPECT_EQ(out[1].wavefronts, 2) << portable;
    EXPECT_EQ(out[1].distinct_words, 8) << portable;
    EXPECT_EQ(out[1].worst_bank, 0) << portable;
    EXPECT_EQ(out[1].worst_lanes, 0x300u) << portable;
  }
}

TEST(BankSets, DeclinesUnalignedWideAccesses) {
  std::array<std::uint64_t, 32> a{};
  for (int l = 0; l < 32; ++l) a[static_cast<size_t>(l)] = 16u * static_cast<std::uint64_t>(l);
  a[3] = 52;  // 4-byte aligned, not 16
  std::array<BankSetLoad, 4> out{};
  EXPECT_EQ(count_bank_sets(a.data(), 32, 8, 0xffffffffu, 4, BankLoad::DistinctWords, out.data()), 0b1110u);
  EXPECT_EQ(count_bank_sets_portable(a.data(), 32, 8, 0xffffffffu, 4, BankLoad::DistinctWords, out.data()), 0b1110u);
}

TEST(BankSets, SkipsGroupsWithNoActiveLane) {
  std::array<std::uint64_t, 32> a{};
  for (int l = 0; l < 32; ++l) a[static_cast<size_t>(l)] = 16u * static_cast<std::uint64_t>(l);
  std::array<BankSetLoad, 4> out{};
  EXPECT_EQ(count_bank_sets(a.data(), 32, 8, 0x00ff00ffu, 4, BankLoad::DistinctWords, out.data()), 0b0101u);
}

}  // namespace
}  // namespace warpscope::model
