// bank_sets.h: the common case of shared_cost.cc, counted fast.
//
// An aligned access of w words per lane (w = 1, 2 or 4; 1 for accesses narrower than a
// word) covers the w consecutive banks of one "bank set" s = (word / w) % (32 / w), all in
// one row r = word / 32 (a row is 128 bytes: one word in each bank). Every bank of a set
// therefore sees the same rows, and the busiest bank's distinct words are the busiest
// set's distinct rows:
//
//   s[lane*32], 4 bytes:  every lane in set 0, rows 0..31 -> 32 distinct rows: 32 wavefronts
//   float4 s[lane], lanes 0-7 (one 16-byte group): sets 0..7, row 0 or 1 -> 1 wavefront
//
// Two ways to count, the same answer (bank_sets_test.cc checks both against a literal
// per-bank count):
//  - a table of row bits: when the group's rows lie within 64 consecutive rows, r % 64
//    tells them apart, a set's rows are the bits of one 64-bit word and its count is a
//    popcount (portable, and AVX2 where sorting does not apply);
//  - sorting (AVX2, a warp whose rows lie in one aligned window of 1024 rows, 128 KiB):
//    each lane's key (group, set, row % 1024) through a sorting network; equal keys sit
//    side by side, a set's keys form one run, a group's sets one range (bank_sets_sorted.h;
//    the network: warp_simd.h).
// The AVX2 versions are chosen at load time when the CPU has AVX2 (bank_sets_avx2.cc).
#pragma once

#include <cstdint>

#include "model/shared_cost.h"

namespace warpscope::model {

// What loads a bank: its distinct words (loads, stores, aggregated atomics: lanes on one
// word share it), or its lanes (value-returning atomics: lanes on one word serialize).
enum class BankLoad : std::uint8_t { DistinctWords, Lanes };

// Every field is set for a counted group (no initializers: the hot path fills arrays of these).
struct BankSetLoad {
  int wavefronts;             // the busiest set's distinct rows (or lanes)
  int distinct_words;         // over all sets, times the words per lane
  int worst_bank;             // the lowest bank of the lowest busiest set
  std::uint32_t worst_lanes;  // lanes in that set (distinct words: only when wavefronts > 1)
};

// Counts each group of `group_lanes` lanes (8, 16 or 32) among the first `lanes` lanes
// (a multiple of group_lanes) of a warp's byte addresses; `mask` selects the active lanes.
// Group g (lanes g*group_lanes ...) goes to out[g]. Returns a bit per group: set when the
// group was counted, clear when it has no active lane or the fast path does not apply
// (rows too spread out, addresses 4 GiB or more apart, a lane's words not starting a bank
// set: an unaligned wide access; BankLoad::Lanes: groups other than 32 lanes); the caller
// counts those the general way.
std::uint32_t count_bank_sets(const std::uint64_t* address, int lanes, int group_lanes, std::uint32_t mask,
                              int words_per_lane, BankLoad load, BankSetLoad* out);

// A whole warp's single group as the access's cost (every field of `cost`): wavefronts, the
// ideal (its distinct words over the words per wavefront, 1 << wavefront_words_log2).
inline void price_whole_warp(const BankSetLoad& g, int wavefront_words_log2, SharedCost& cost) {
  cost.wavefronts = g.wavefronts;
  cost.ideal_wavefronts = (g.distinct_words + (1 << wavefront_words_log2) - 1) >> wavefront_words_log2;
  cost.groups = 1;
  cost.group_lanes = 32;
  cost.worst_bank = g.worst_bank;
  cost.worst_degree = g.wavefronts;
  cost.worst_group = 0;
  cost.colliding_lanes = g.worst_lanes;
}

// The most common shape, one group of the whole warp (lanes and group_lanes 32), without the
// loop over groups and priced at once: the counter for `words_per_lane` (1, 2 or 4; else
// nullptr), chosen once, to be called directly (hot paths keep it).
// counter(address, mask, load, wavefront_words_log2, cost), mask not 0: true and `cost` filled
// by price_whole_warp; false (cost untouched): the caller counts the general way.
using WarpCounter = bool (*)(const std::uint64_t* address, std::uint32_t mask, BankLoad load, int wavefront_words_log2,
                             SharedCost& cost);
WarpCounter warp_counter(int words_per_lane);

// The same without SIMD, whatever the CPU (for tests and other architectures). It does not
// sort: it counts groups whose rows lie within 64. For distinct words that is a subset of
// what the AVX2 version counts; for lanes the AVX2 version counts only by sorting, so a
// 32-lane group whose rows straddle its 128 KiB window is counted here and declined there.
std::uint32_t count_bank_sets_portable(const std::uint64_t* address, int lanes, int group_lanes, std::uint32_t mask,
                                       int words_per_lane, BankLoad load, BankSetLoad* out);

}  // namespace warpscope::model
