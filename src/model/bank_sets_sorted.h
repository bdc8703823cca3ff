// bank_sets_sorted.h: a group of 32 lanes counted by sorting (AVX2; included by
// bank_sets_avx2.cc only).
//
// Each active lane's key is set * 1024 + row % 1024 (15 bits; rows in one aligned window of
// 1024, checked by the caller), an inactive lane's 0xffff. After sorting (a bitonic
// network on two registers of 16 keys, below), lanes reading one chunk of a set sit side by side
// and each set's keys form one run, so:
//   distinct words of a set = distinct keys in its run   (loads, stores)
//   lanes of a set          = length of its run          (value-returning atomics)
// and the busiest set is the longest such run. No table, no memory round trip, no chain
// of stores when many lanes share a set.
//
//   s[lane*32] (4 bytes): keys 0, 1, 2, ... 31 (set 0, rows 0-31): one run of 32 -> 32
//   s[lane*2]:            keys 0, 1024, 2048, ... twice each row (sets 0,2,..,30 rows 0,1) -> 2
#pragma once

#include <immintrin.h>

#include <array>
#include <cstdint>

#include "model/bank_sets.h"

// AVX2 code (and the scalar instructions used with it), chosen at run time.
#define WARPSCOPE_AVX2 __attribute__((target("avx2,popcnt,bmi,bmi2")))

namespace warpscope::model::bank_sets_detail {

inline constexpr int kRowBits = 10;                       // rows per window: 1 << kRowBits
inline constexpr std::uint16_t kInactiveKey = 0xffff;     // sorts after every real key

// The sorting network: Batcher's bitonic sort of 32 keys in the form in which every
// comparator puts the smaller key first (a merge of two sorted blocks first compares each
// key with its mirror image in the other block, then halves: strides 8, 4, 2, 1). Each step
// compares register a with register b lane by lane (16 comparators, two instructions: the
// minima to a, the maxima to b); between steps one or two shuffles move the keys so that
// the next step's pairs face each other. Those moves were found by a search over the ways
// keys can be laid out on two registers (tools/sort_network_search.py), the shortest
// chain of dependent steps first (31 cycles of moves on Zen 3; two cross the 128-bit
// halves), then the fewest instructions: 75, where comparing within a register (shuffle,
// min, max, blend) took 142. Keys enter in any order and leave sorted in the order
// count_sorted reads them: keys 0-7 and 16-23 in a, 8-15 and 24-31 in b.

WARPSCOPE_AVX2 inline void compare(__m256i& a, __m256i& b) {
  const __m256i lo = _mm256_min_epu16(a, b);
  b = _mm256_max_epu16(a, b);
  a = lo;
}

// Interleaves a and b in units of 16, 32 bits (within each 128-bit half): a takes the low
// units of both, b the high ones.
WARPSCOPE_AVX2 inline void interleave16(__m256i& a, __m256i& b) {
  const __m256i lo = _mm256_unpacklo_epi16(a, b);
  b = _mm256_unpackhi_epi16(a, b);
  a = lo;
}
WARPSCOPE_AVX2 inline void interleave32(__m256i& a, __m256i& b) {
  const __m256i lo = _mm256_unpacklo_epi32(a, b);
  b = _mm256_unpackhi_epi32(a, b);
  a = lo;
}

// a takes the even 32-bit units of both registers, b the odd ones (within each half).
WARPSCOPE_AVX2 inline void deal32(__m256i& a, __m256i& b) {
  const __m256 x = _mm256_castsi256_ps(a), y = _mm256_castsi256_ps(b);
  a = _mm256_castps_si256(_mm256_shuffle_ps(x, y, 0x88));
  b = _mm256_castps_si256(_mm256_shuffle_ps(x, y, 0xdd));
}

// a and b trade the keys where kMask (a vpblendw mask: per 128-bit half, 8 keys; or, with
// kDwords, a vpblendd mask: 8 pairs of keys) is set.
template <int kMask, bool kDwords = false>
WARPSCOPE_AVX2 inline void trade(__m256i& a, __m256i& b) {
  if constexpr (kDwords) {
    const __m256i x = _mm256_blend_epi32(a, b, kMask);
    b = _mm256_blend_epi32(b, a, kMask);
    a = x;
  } else {
    const __m256i x = _mm256_blend_epi16(a, b, kMask);
    b = _mm256_blend_epi16(b, a, kMask);
    a = x;
  }
}

// Keys move within each 128-bit half: a's key j from key (j >> 1 & 1) | (j >> 2 & 1) << 1 |
// (j & 1) << 2 (the bits of a key's place rotate), b's the same from place j ^ 3.
WARPSCOPE_AVX2 inline void rotate_places(__m256i& a, __m256i& b) {
  a = _mm256_shuffle_epi8(a, _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,  //
                                              0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15));
  b = _mm256_shuffle_epi8(b, _mm256_setr_epi8(10, 11, 2, 3, 8, 9, 0, 1, 14, 15, 6, 7, 12, 13, 4, 5,  //
                                              10, 11, 2, 3, 8, 9, 0, 1, 14, 15, 6, 7, 12, 13, 4, 5));
}

// Key k of b (k = 0-15) trades places with key k ^ kFlip (4: swaps 4-key blocks; 6:
// reverses pairs within 8; 7: reverses 8; 8: swaps the 128-bit halves; 14: both 8 and 6).
// Across the halves with permute2x128 (3 cycles on Zen 3; permute4x64 takes 6).
template <int kFlip>
WARPSCOPE_AVX2 inline __m256i flip(__m256i b) {
  if constexpr (kFlip == 4)
    return _mm256_shuffle_epi32(b, 0x4e);
  else if constexpr (kFlip == 6)
    return _mm256_shuffle_epi32(b, 0x1b);
  else if constexpr (kFlip == 7)
    return _mm256_shuffle_epi8(b, _mm256_setr_epi8(14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,  //
                                                   14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1));
  else if constexpr (kFlip == 8)
    return _mm256_permute2x128_si256(b, b, 0x01);
  else
    return _mm256_shuffle_epi32(_mm256_permute2x128_si256(b, b, 0x01), 0x1b);
}

// A merge's first step: each key against its mirror image (b's block flipped, compared,
// flipped back).
template <int kFlip>
WARPSCOPE_AVX2 inline void compare_mirrored(__m256i& a, __m256i& b) {
  b = flip<kFlip>(b);
  compare(a, b);
  b = flip<kFlip>(b);
}

// Sorts the 32 keys of a and b (any order), ascending: keys 0-7 and 16-23 to a, 8-15 and
// 24-31 to b.
WARPSCOPE_AVX2 inline void sort_keys(__m256i& a, __m256i& b) {
  compare(a, b);  // blocks of 2
  deal32(a, b);
  compare_mirrored<4>(a, b);  // blocks of 4
  interleave32(a, b);
  compare(a, b);
  interleave32(a, b);
  compare_mirrored<6>(a, b);  // blocks of 8
  interleave16(a, b);
  compare(a, b);
  interleave16(a, b);
  compare(a, b);
  interleave16(a, b);
  compare_mirrored<7>(a, b);  // blocks of 16
  interleave16(a, b);
  compare(a, b);
  interleave16(a, b);
  compare(a, b);
  trade<0xcc>(a, b);
  interleave16(a, b);
  compare(a, b);
  b = flip<14>(b);  // all 32: each key against its mirror image
  trade<0xf0, true>(a, b);
  compare(a, b);
  trade<0x3c, true>(a, b);
  rotate_places(a, b);
  compare(a, b);
  interleave16(a, b);
  trade<0xcc>(a, b);
  compare(a, b);
  interleave16(a, b);
  compare(a, b);
  interleave16(a, b);
  b = flip<8>(b);
  compare(a, b);
  interleave16(a, b);
}

// Bit i: key i equals key i - 1 once both are shifted right by kShift (key 0 compares with 0),
// for keys in sort_keys' order: the key before each of b's is a's in the same place or the
// one before it; a's second half follows b's first (the one move across halves).
template <int kShift>
WARPSCOPE_AVX2 inline std::uint32_t equal_to_previous(__m256i a, __m256i b) {
  const __m256i prev_a = _mm256_alignr_epi8(a, _mm256_permute2x128_si256(b, b, 0x08), 14);
  const __m256i prev_b = _mm256_alignr_epi8(b, a, 14);
  const __m256i eq_a = _mm256_cmpeq_epi16(_mm256_srli_epi16(a, kShift), _mm256_srli_epi16(prev_a, kShift));
  const __m256i eq_b = _mm256_cmpeq_epi16(_mm256_srli_epi16(b, kShift), _mm256_srli_epi16(prev_b, kShift));
  // packs takes a's 8 keys, then b's 8, per 128-bit half: keys 0-7, 8-15 | 16-23, 24-31.
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_packs_epi16(eq_a, eq_b)));
}

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
  return {(~equal_to_previous<0>(a, b) | 1u) & real, (~equal_to_previous<kRowBits>(a, b) | 1u) & real};
}

// The busiest set among sorted keys first .. end - 1 (first < end: one group's keys, whose
// sets differ from every other group's), `keys` as sort_keys leaves them (a, then b).
WARPSCOPE_AVX2 inline SortedCount count_sorted(const SortedMarks& marked, const std::uint16_t* keys, int first, int end,
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
  // set counts one).
  const unsigned rank = gap == 0 ? 0u : static_cast<unsigned>(after) - 1u;
  const int key_index = lanes ? first + static_cast<int>(rank) : __builtin_ctz(_pdep_u32(1u << rank, heads));
  // a then b: key i at place i % 8 + (i & 8) * 2 + (i & 16) / 2
  const int place = (key_index & 7) | ((key_index & 8) << 1) | ((key_index & 16) >> 1);
  return {gap + 1, keys[place] >> kRowBits, distinct};
}

}  // namespace warpscope::model::bank_sets_detail
