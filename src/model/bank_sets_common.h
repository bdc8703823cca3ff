// bank_sets_common.h: what the portable and AVX2 counters of bank_sets.h share (private to
// src/model): the one-wavefront shortcut and the table of counters by shape.
#pragma once

#include <array>
#include <cstdint>

#include "model/bank_sets.h"

namespace warpscope::model::bank_sets_detail {

inline constexpr int kMaxLanes = 32;

// Log2 of the words per lane (1, 2, 4): sets are (word >> shift) % (32 >> shift).
template <int kWordsPerLane>
inline constexpr int kSetShift = kWordsPerLane == 4 ? 2 : kWordsPerLane - 1;

// True (and `out` filled) when every active lane has a set of its own, or (distinct words)
// all read one address: one wavefront, nothing to count. Inlined into each caller, so the
// AVX2 version runs it as AVX2 code too.
template <int kWordsPerLane>
__attribute__((always_inline)) inline bool one_wavefront(std::uint32_t used_sets, bool same_address,
                                                         std::uint32_t mask, BankSetLoad& out) {
  const bool own_sets = __builtin_popcount(used_sets) == __builtin_popcount(mask);
  if (!own_sets && !same_address) return false;
  out.wavefronts = 1;
  out.distinct_words = (own_sets ? __builtin_popcount(mask) : 1) * kWordsPerLane;
  out.worst_bank = __builtin_ctz(used_sets) * kWordsPerLane;
  out.worst_lanes = 0;
  return true;
}

// The counters for the shapes the hardware has, by log2(group lanes / 8) and log2(words
// per lane): Count<8 << g, 1 << w>::run(address, lanes, mask, load, out).
using CountFn = std::uint32_t (*)(const std::uint64_t*, int, std::uint32_t, BankLoad, BankSetLoad*);
using CountTable = std::array<std::array<CountFn, 3>, 3>;

template <template <int, int> class Count>
constexpr CountTable count_table() {
  return {{{Count<8, 1>::run, Count<8, 2>::run, Count<8, 4>::run},
           {Count<16, 1>::run, Count<16, 2>::run, Count<16, 4>::run},
           {Count<32, 1>::run, Count<32, 2>::run, Count<32, 4>::run}}};
}

// The same for the most common shape, a whole warp as one group of 32 lanes, by log2(words
// per lane): Count<32, 1 << w>::warp, bank_sets.h's WarpCounter (no loop over groups, the
// cost priced).
using WarpTable = std::array<WarpCounter, 3>;

template <template <int, int> class Count>
constexpr WarpTable warp_table() {
  return {Count<32, 1>::warp, Count<32, 2>::warp, Count<32, 4>::warp};
}

// The AVX2 counters (bank_sets_avx2.cc), or false when this build or CPU has none.
bool avx2_counters(CountTable& table, WarpTable& warp);

}  // namespace warpscope::model::bank_sets_detail
