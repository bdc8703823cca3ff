// bank_sets_sorted.h: a group of 32 lanes counted by sorting (AVX2; included by
// bank_sets_avx2.cc only).
//
// Each active lane's key is set * 1024 + row % 1024 (15 bits; rows in one aligned window of
// 1024, checked by the caller), an inactive lane's 0xffff. After sorting (a bitonic network
// on two registers of 16 keys, warp_simd.h), lanes reading one chunk of a set sit side by
// side and each set's keys form one run, so:
//   distinct words of a set = distinct keys in its run   (loads, stores)
//   lanes of a set          = length of its run          (value-returning atomics)
// and the busiest set is the longest such run. No table, no memory round trip, no chain
// of stores when many lanes share a set.
//
//   s[lane*32] (4 bytes): keys 0, 1, 2, ... 31 (set 0, rows 0-31): one run of 32 -> 32
//   s[lane*2]:            keys 0, 1024, 2048, ... twice each row (sets 0,2,..,30 rows 0,1) -> 2
#pragma once

#include <cstdint>

#include "model/bank_sets.h"
#include "model/warp_simd.h"

namespace warpscope::model::bank_sets_detail {

using namespace simd;  // the network and the lane helpers

inline constexpr int kRowBits = 10;                       // rows per window: 1 << kRowBits
inline constexpr std::uint16_t kInactiveKey = 0xffff;     // sorts after every real key

// The busiest set of sorted keys (`active` real keys first): its count, the lowest set with
// that count, and the distinct keys of all sets.
struct SortedCount {
  int most;
  int set;
  int distinct;
};

// The longest run of ones in `ones` (bits 1-31; a run is at most 31 long), and the lowest
// position one starts at.
WARPSCOPE_AVX2 inline void longest_run(std::uint64_t ones, int& length, int& at) {
  // run_k: bit p set where `ones` has k ones from p on. Then a binary search for the length.
  const std::uint64_t run1 = ones, run2 = run1 & (run1 >> 1), run4 = run2 & (run2 >> 2), run8 = run4 & (run4 >> 4),
                      run16 = run8 & (run8 >> 8);
  std::uint64_t starts = ~0ull;  // where `length` ones start
  length = 0;
  const auto extend = [&](std::uint64_t run, int k) {
    const std::uint64_t longer = starts & (run >> length);
    starts = longer != 0 ? longer : starts;
    length += longer != 0 ? k : 0;
  };
  extend(run16, 16);
  extend(run8, 8);
  extend(run4, 4);
  extend(run2, 2);
  extend(run1, 1);
  at = length == 0 ? 0 : __builtin_ctzll(starts);
}

// Where the sorted keys change: bit i of heads where key i is the first of its value, of
// starts where it is the first of its set (key >> kRowBits); both among the first `active`.
struct SortedMarks {
  std::uint32_t heads, starts;
};

WARPSCOPE_AVX2 inline SortedMarks mark_sorted(__m256i a, __m256i b, int active) {
  const std::uint32_t real = active == 32 ? ~0u : (1u << active) - 1u;
  const Previous prev = previous_keys(a, b);
  return {(~equal_to_previous(a, b, prev, 0) | 1u) & real, (~equal_to_previous(a, b, prev, kRowBits) | 1u) & real};
}

// The busiest set among sorted keys first .. end - 1 (first < end: one group's keys, whose
// sets differ from every other group's); `present` has a bit for each set among the keys
// (their key >> kRowBits).
WARPSCOPE_AVX2 inline SortedCount count_sorted(const SortedMarks& marked, std::uint32_t present, int first, int end,
                                               BankLoad load) {
  const std::uint32_t range = (end == 32 ? ~0u : (1u << end) - 1u) & ~((1u << first) - 1u);
  const std::uint32_t heads = marked.heads & range, starts = marked.starts & range;
  const int distinct = __builtin_popcount(heads);
  // Where the sets start, among the keys counted (the heads, or every key for lanes), with
  // an end mark: a set's count is the distance to the next start, the longest run of
  // zeros between starts + 1 (the range's first key starts a set: the run is at most 31).
  const bool lanes = load == BankLoad::Lanes;
  const int counted = lanes ? end - first : distinct;
  const std::uint64_t marks = (lanes ? starts >> first : _pext_u32(starts, heads)) | (1ull << counted);
  int gap = 0, after = 0;
  longest_run(~marks & ((1ull << counted) - 1u), gap, after);
  // The busiest set starts just before its run of zeros (at the range's first key when every
  // set counts one): it is the range's n-th set, n the starts up to there, and the set is
  // the (sets before the range + n)-th present; no key is read back from the sorted ones.
  const unsigned rank = gap == 0 ? 0u : static_cast<unsigned>(after) - 1u;
  const int before = __builtin_popcount(marked.starts & ((1u << first) - 1u));
  const int nth = before + __builtin_popcountll(marks & ((2ull << rank) - 1u)) - 1;
  return {gap + 1, __builtin_ctz(_pdep_u32(1u << nth, present)), distinct};
}

}  // namespace warpscope::model::bank_sets_detail
