// warp_simd.h: AVX2 building blocks for one warp's 32 lanes (private to src/model; included
// by bank_sets_avx2.cc and global_cost_avx2.cc, whose functions carry WARPSCOPE_AVX2 and are
// chosen at load time): the lanes' addresses with inactive lanes filled in, reductions over
// lanes, and a sorting network for 32 keys of 16 bits.
#pragma once

#include <immintrin.h>

#include <cstdint>

// AVX2 code (and the scalar instructions used with it), chosen at run time.
#define WARPSCOPE_AVX2 __attribute__((target("avx2,popcnt,bmi,bmi2")))

namespace warpscope::model::simd {

// The 32 lanes' 64-bit addresses, four to a vector; an inactive lane takes the first active
// lane's address (`mask` not 0), which adds no new row, sector or word to any count.
WARPSCOPE_AVX2 inline void load_lanes(const std::uint64_t* addr, std::uint32_t mask, __m256i* q) {
#pragma GCC unroll 8
  for (int v = 0; v < 8; ++v) q[v] = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + 4 * v));
  if (mask == ~0u) return;
  const __m256d fill = _mm256_castsi256_pd(_mm256_set1_epi64x(static_cast<long long>(addr[__builtin_ctz(mask)])));
  const __m256i bits = _mm256_set1_epi64x(static_cast<long long>(mask));
#pragma GCC unroll 8
  for (int v = 0; v < 8; ++v) {  // lane 4v + j's mask bit moved to the sign bit: blendv's selector
    const __m256i at_sign = _mm256_sllv_epi64(bits, _mm256_setr_epi64x(63 - 4 * v, 62 - 4 * v, 61 - 4 * v, 60 - 4 * v));
    q[v] = _mm256_castpd_si256(_mm256_blendv_pd(fill, _mm256_castsi256_pd(q[v]), _mm256_castsi256_pd(at_sign)));
  }
}

// Horizontal OR of four 64-bit lanes.
WARPSCOPE_AVX2 inline std::uint64_t or_lanes64(__m256i v) {
  const __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm_or_si128(x, _mm_unpackhi_epi64(x, x))));
}

// Over the 32 lanes of q: the bits any address has, and the bits in which addresses differ
// (0: one address). Each lane against lane 0: a bit differs somewhere exactly where some
// lane differs from lane 0 in it.
struct LaneBits {
  std::uint64_t any, differ;
};
WARPSCOPE_AVX2 inline LaneBits lane_bits(const __m256i* q) {
  const __m256i first = _mm256_broadcastq_epi64(_mm256_castsi256_si128(q[0]));
  __m256i off[8];
#pragma GCC unroll 8
  for (int v = 0; v < 8; ++v) off[v] = _mm256_xor_si256(q[v], first);
  const __m256i d = _mm256_or_si256(_mm256_or_si256(_mm256_or_si256(off[0], off[1]), _mm256_or_si256(off[2], off[3])),
                                    _mm256_or_si256(_mm256_or_si256(off[4], off[5]), _mm256_or_si256(off[6], off[7])));
  const std::uint64_t differ = or_lanes64(d);
  return {differ | static_cast<std::uint64_t>(_mm256_extract_epi64(q[0], 0)), differ};
}

// The low 32 bits of lanes 8v .. 8v + 7 (q[2v], q[2v + 1]), in the order shuffle_ps leaves
// them: lanes 0 1 4 5 2 3 6 7.
WARPSCOPE_AVX2 inline __m256i low_halves(const __m256i* q, int v) {
  return _mm256_castps_si256(
      _mm256_shuffle_ps(_mm256_castsi256_ps(q[2 * v]), _mm256_castsi256_ps(q[2 * v + 1]), 0x88));
}

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
// previous_keys and sorted_place read them: keys 0-7 and 16-23 in a, 8-15 and 24-31 in b.

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

// The key before each key, for keys in sort_keys' order (key 0's: 0): the key before each of
// b's is a's in the same place or the one before it; a's second half follows b's first (the
// one move across halves).
struct Previous {
  __m256i a, b;
};
WARPSCOPE_AVX2 inline Previous previous_keys(__m256i a, __m256i b) {
  return {_mm256_alignr_epi8(a, _mm256_permute2x128_si256(b, b, 0x08), 14), _mm256_alignr_epi8(b, a, 14)};
}

// Bit i: key i equals the key before it once both are shifted right by `shift` (a constant
// shift, inlined, is an immediate).
WARPSCOPE_AVX2 inline std::uint32_t equal_to_previous(__m256i a, __m256i b, const Previous& prev, int shift) {
  const __m256i eq_a = _mm256_cmpeq_epi16(_mm256_srli_epi16(a, shift), _mm256_srli_epi16(prev.a, shift));
  const __m256i eq_b = _mm256_cmpeq_epi16(_mm256_srli_epi16(b, shift), _mm256_srli_epi16(prev.b, shift));
  // packs takes a's 8 keys, then b's 8, per 128-bit half: keys 0-7, 8-15 | 16-23, 24-31.
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_packs_epi16(eq_a, eq_b)));
}

// Where sort_keys leaves sorted key i: a (places 0-15), then b (16-31).
constexpr int sorted_place(int i) { return (i & 7) | ((i & 8) << 1) | ((i & 16) >> 1); }

}  // namespace warpscope::model::simd
