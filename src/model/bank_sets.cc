// bank_sets.cc: the portable counters of bank_sets.h, and the choice between them and the
// AVX2 ones (bank_sets_avx2.cc), made once at load time.
//
// Per group: each lane's set and row, the sets used and whether all lanes read one address,
// with no branch on the addresses (an inactive lane takes an active lane's address, which
// adds no row, set or word). One wavefront when every lane has a set of its own or all
// read one address; otherwise the table of row bits (count_rows), when the rows span
// fewer than 64.
#include "model/bank_sets.h"

#include <algorithm>
#include <array>

#include "model/bank_sets_common.h"

namespace warpscope::model {

namespace {

using namespace bank_sets_detail;

// Distinct rows per set, given each lane's set and row (the rows span fewer than 64).
template <int kLanes, int kWordsPerLane, class T>
__attribute__((always_inline)) inline void count_rows(const T* set, const T* row, BankSetLoad& out) {
  constexpr int kSets = kMaxLanes / kWordsPerLane;
  std::array<std::uint64_t, kSets> rows{};
#pragma GCC unroll 32
  for (int i = 0; i < kLanes; ++i) rows[set[i]] |= 1ull << (row[i] & 63u);
  int most = 0, sum = 0, worst = 0;
#pragma GCC unroll 32
  for (int s = 0; s < kSets; ++s) {
    const int c = __builtin_popcountll(rows[static_cast<size_t>(s)]);
    sum += c;
    worst = c > most ? s : worst;  // the lowest busiest set
    most = std::max(most, c);
  }
  out.wavefronts = most;
  out.distinct_words = sum * kWordsPerLane;
  out.worst_bank = worst * kWordsPerLane;
  out.worst_lanes = 0;  // the caller names them, only for a conflict
}

template <int kLanes, int kWordsPerLane>
struct Portable {
  static bool count_group(const std::uint64_t* addr, std::uint32_t mask, BankLoad load, BankSetLoad& out) {
    constexpr unsigned kShift = kSetShift<kWordsPerLane>;
    constexpr std::uint64_t kSetMask = (32u >> kShift) - 1u;
    const bool lanes = load == BankLoad::Lanes;  // value-returning atomics: one lane, one access
    if (lanes && kLanes != 32) return false;
    const std::uint64_t fill = addr[__builtin_ctz(mask)];
    std::array<std::uint64_t, kLanes> set, row;
    std::array<int, kMaxLanes> lanes_in_set{};
    std::uint64_t any = 0, far = 0, lo = ~0ull, hi = 0;
    std::uint32_t used = 0;
    bool same = true;
    for (int i = 0; i < kLanes; ++i) {
      const std::uint64_t keep = 0 - static_cast<std::uint64_t>((mask >> i) & 1u);
      const std::uint64_t a = (addr[i] & keep) | (fill & ~keep);
      any |= a;
      far |= (a ^ fill) >> 32;
      set[static_cast<size_t>(i)] = (a >> (2u + kShift)) & kSetMask;
      lanes_in_set[static_cast<size_t>(set[static_cast<size_t>(i)])] += static_cast<int>((mask >> i) & 1u);
      used |= 1u << set[static_cast<size_t>(i)];
      same &= a == fill;
      row[static_cast<size_t>(i)] = a >> 7;
      lo = std::min(lo, a >> 7);
      hi = std::max(hi, a >> 7);
    }
    // Addresses 4 GiB apart, or a lane's words not starting a bank set: the general way.
    if (far != 0 || ((any >> 2) & static_cast<std::uint64_t>(kWordsPerLane - 1)) != 0) return false;
    if (!one_wavefront<kWordsPerLane>(used, same && !lanes, mask, out)) {
      if (hi - lo >= 64) return false;
      count_rows<kLanes, kWordsPerLane>(set.data(), row.data(), out);
      if (lanes) {  // the busiest set by lanes (the lowest one), distinct words as counted
        const auto busiest = std::max_element(lanes_in_set.begin(), lanes_in_set.end());
        out.wavefronts = *busiest;
        out.worst_bank = static_cast<int>(busiest - lanes_in_set.begin()) * kWordsPerLane;
      }
    }
    if (lanes || out.wavefronts > 1)
      for (int i = 0; i < kLanes; ++i)
        out.worst_lanes |= static_cast<std::uint32_t>(set[static_cast<size_t>(i)] * kWordsPerLane ==
                                                      static_cast<std::uint64_t>(out.worst_bank))
                           << i;
    out.worst_lanes &= mask;
    return true;
  }

  static bool warp(const std::uint64_t* address, std::uint32_t mask, BankLoad load, int wavefront_words_log2,
                   SharedCost& cost) {
    BankSetLoad g;
    if (!count_group(address, mask, load, g)) return false;
    price_whole_warp(g, wavefront_words_log2, cost);
    return true;
  }

  static std::uint32_t run(const std::uint64_t* address, int lanes, std::uint32_t warp_mask, BankLoad load,
                           BankSetLoad* out) {
    std::uint32_t counted = 0;
    for (int first = 0, g = 0; first < lanes; first += kLanes, ++g) {
      const std::uint32_t mask = kLanes == 32 ? warp_mask : (warp_mask >> first) & ((1u << kLanes) - 1u);
      if (mask == 0 || !count_group(address + first, mask, load, out[g])) continue;
      out[g].worst_lanes <<= first;
      counted |= 1u << g;
    }
    return counted;
  }
};

constexpr CountTable kPortable = count_table<Portable>();

// The portable counters from the start (constant initialization), the AVX2 ones once this
// file's static initializers have run where the CPU has AVX2.
CountTable counters = kPortable;
WarpTable warp_counters = warp_table<Portable>();
const bool kPicked = avx2_counters(counters, warp_counters);

std::uint32_t run_counter(const CountTable& table, const std::uint64_t* address, int lanes, int group_lanes,
                          std::uint32_t mask, int words_per_lane, BankLoad load, BankSetLoad* out) {
  const unsigned g = static_cast<unsigned>(group_lanes) >> 3, w = static_cast<unsigned>(words_per_lane);
  // group_lanes 8, 16, 32 and words per lane 1, 2, 4: powers of two up to 4 (one bit each).
  if (g == 0 || g > 4 || (g & (g - 1)) != 0 || w == 0 || w > 4 || (w & (w - 1)) != 0) return 0;
  return table[static_cast<size_t>(__builtin_ctz(g))][static_cast<size_t>(__builtin_ctz(w))](address, lanes, mask,
                                                                                               load, out);
}

}  // namespace

std::uint32_t count_bank_sets_portable(const std::uint64_t* address, int lanes, int group_lanes, std::uint32_t mask,
                                       int words_per_lane, BankLoad load, BankSetLoad* out) {
  return run_counter(kPortable, address, lanes, group_lanes, mask, words_per_lane, load, out);
}

std::uint32_t count_bank_sets(const std::uint64_t* address, int lanes, int group_lanes, std::uint32_t mask,
                              int words_per_lane, BankLoad load, BankSetLoad* out) {
  return run_counter(counters, address, lanes, group_lanes, mask, words_per_lane, load, out);
}

WarpCounter warp_counter(int words_per_lane) {
  const auto w = static_cast<unsigned>(words_per_lane);
  if (w == 0 || w > 4 || (w & (w - 1)) != 0) return nullptr;
  return warp_counters[static_cast<size_t>(__builtin_ctz(w))];
}

}  // namespace warpscope::model
