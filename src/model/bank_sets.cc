// bank_sets.cc: distinct rows per bank set (see bank_sets.h), portable and AVX2.
//
// Both versions work in two steps per lane group. First, per lane: its set and row, the
// sets used and whether all lanes read one address, with no branch on the addresses (an
// inactive lane takes an active lane's address, which adds no row to any set). Second,
// shared: one wavefront when every lane has a set of its own or all read one address
// (one_wavefront); otherwise the rows' span, then each lane's row bit (1 << r % 64) ORed
// into its set and the sets' popcounts (count_rows).
#include "model/bank_sets.h"

#include <algorithm>
#include <array>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(WARPSCOPE_PORTABLE_ONLY)
#include <immintrin.h>
#define WARPSCOPE_HAVE_AVX2_PATH 1
#endif

namespace warpscope::model {

namespace {

constexpr int kMaxLanes = 32;

// The two halves of the count, inlined into each caller (so the AVX2 version runs them as
// AVX2 code too). one_wavefront: true (and `out` filled) when every active lane has a set
// of its own or all read one address; no row needs counting then.
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

// The counters for the shapes the hardware has, by log2(group lanes / 8) and
// log2(words per lane): Count<8 << g, 1 << w>::run.
using CountFn = std::uint32_t (*)(const std::uint64_t*, int, std::uint32_t, BankSetLoad*);
using CountTable = std::array<std::array<CountFn, 3>, 3>;

template <template <int, int> class Count>
constexpr CountTable count_table() {
  return {{{Count<8, 1>::run, Count<8, 2>::run, Count<8, 4>::run},
           {Count<16, 1>::run, Count<16, 2>::run, Count<16, 4>::run},
           {Count<32, 1>::run, Count<32, 2>::run, Count<32, 4>::run}}};
}

std::uint32_t run_counter(const CountTable& table, const std::uint64_t* address, int lanes, int group_lanes,
                          std::uint32_t mask, int words_per_lane, BankSetLoad* out) {
  const unsigned g = static_cast<unsigned>(group_lanes) >> 3, w = static_cast<unsigned>(words_per_lane);
  // group_lanes 8, 16, 32 and words per lane 1, 2, 4: powers of two up to 4 (one bit each).
  if (g == 0 || g > 4 || (g & (g - 1)) != 0 || w == 0 || w > 4 || (w & (w - 1)) != 0) return 0;
  return table[static_cast<size_t>(__builtin_ctz(g))][static_cast<size_t>(__builtin_ctz(w))](address, lanes, mask, out);
}

template <int kLanes, int kWordsPerLane>
struct Portable {
  static bool count_group(const std::uint64_t* addr, std::uint32_t mask, BankSetLoad& out) {
    constexpr unsigned kShift = kWordsPerLane == 4 ? 2u : static_cast<unsigned>(kWordsPerLane - 1);
    constexpr std::uint64_t kSetMask = (32u >> kShift) - 1u;
    const std::uint64_t fill = addr[__builtin_ctz(mask)];
    std::array<std::uint64_t, kLanes> set, row;
    std::uint64_t any = 0, far = 0, lo = ~0ull, hi = 0;
    std::uint32_t used = 0;
    bool same = true;
    for (int i = 0; i < kLanes; ++i) {
      const std::uint64_t keep = 0 - static_cast<std::uint64_t>((mask >> i) & 1u);
      const std::uint64_t a = (addr[i] & keep) | (fill & ~keep);
      any |= a;
      far |= (a ^ fill) >> 32;
      set[static_cast<size_t>(i)] = (a >> (2u + kShift)) & kSetMask;
      used |= 1u << set[static_cast<size_t>(i)];
      same &= a == fill;
      row[static_cast<size_t>(i)] = a >> 7;
      lo = std::min(lo, a >> 7);
      hi = std::max(hi, a >> 7);
    }
    // Addresses 4 GiB apart, or a lane's words not starting a bank set: the general way.
    if (far != 0 || ((any >> 2) & static_cast<std::uint64_t>(kWordsPerLane - 1)) != 0) return false;
    if (one_wavefront<kWordsPerLane>(used, same, mask, out)) return true;
    if (hi - lo >= 64) return false;
    count_rows<kLanes, kWordsPerLane>(set.data(), row.data(), out);
    if (out.wavefronts > 1)
      for (int i = 0; i < kLanes; ++i)
        out.worst_lanes |= static_cast<std::uint32_t>(set[static_cast<size_t>(i)] * kWordsPerLane ==
                                                      static_cast<std::uint64_t>(out.worst_bank))
                           << i;
    out.worst_lanes &= mask;
    return true;
  }

  static std::uint32_t run(const std::uint64_t* address, int lanes, std::uint32_t warp_mask, BankSetLoad* out) {
    std::uint32_t counted = 0;
    for (int first = 0, g = 0; first < lanes; first += kLanes, ++g) {
      const std::uint32_t mask = kLanes == 32 ? warp_mask : (warp_mask >> first) & ((1u << kLanes) - 1u);
      if (mask == 0 || !count_group(address + first, mask, out[g])) continue;
      out[g].worst_lanes <<= first;
      counted |= 1u << g;
    }
    return counted;
  }
};

#ifdef WARPSCOPE_HAVE_AVX2_PATH
#define WARPSCOPE_AVX2 __attribute__((target("avx2,popcnt,bmi,bmi2")))

// Horizontal OR, min and max of eight unsigned 32-bit lanes.
#define WARPSCOPE_REDUCE_LANES(name, op)                                      \
  WARPSCOPE_AVX2 inline std::uint32_t name(__m256i v) {                       \
    __m128i x = op(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)); \
    x = op(x, _mm_shuffle_epi32(x, 0x4e));                                     \
    x = op(x, _mm_shuffle_epi32(x, 0xb1));                                     \
    return static_cast<std::uint32_t>(_mm_cvtsi128_si32(x));                   \
  }
WARPSCOPE_REDUCE_LANES(or_lanes, _mm_or_si128)
WARPSCOPE_REDUCE_LANES(min_lanes, _mm_min_epu32)
WARPSCOPE_REDUCE_LANES(max_lanes, _mm_max_epu32)
#undef WARPSCOPE_REDUCE_LANES

// Eight 64-bit addresses (lanes 0-7) as their low and high 32-bit halves, in the order
// shuffle_ps leaves them: lanes 0 1 4 5 2 3 6 7. Counting does not care about the order;
// the lane masks in and out (active lanes, the lanes of the busiest set) are converted.
WARPSCOPE_AVX2 inline void split_halves(const std::uint64_t* p, __m256i& low, __m256i& high) {
  const __m256 a = _mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  const __m256 b = _mm256_castsi256_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 4)));
  low = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0x88));
  high = _mm256_castps_si256(_mm256_shuffle_ps(a, b, 0xdd));
}

// The positions (in split_halves order) of the lanes whose bits are set in `lanes8`.
WARPSCOPE_AVX2 inline __m256i positions_of_lanes(std::uint32_t lanes8) {
  const __m256i lane_bit = _mm256_setr_epi32(1, 2, 16, 32, 4, 8, 64, 128);
  return _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_set1_epi32(static_cast<int>(lanes8)), lane_bit), lane_bit);
}

// The lanes (bit per lane) of positions set in a movemask of split_halves order.
inline std::uint32_t lanes_of_positions(std::uint32_t m) {
  return (m & 0xc3u) | ((m & 0x0cu) << 2) | ((m & 0x30u) >> 2);
}

// ---- 32 lanes by sorting: 32 16-bit keys (set, row % 2048) in two registers ----
//
// Sorted, equal keys (lanes reading one chunk) sit side by side and each set's keys form
// one run, so the distinct rows of a set are the distinct keys in its run: no table, no
// memory round trip, no chain of stores when many lanes share a set.

// Bitonic sorting network, ascending: key i of register r (i + 16 r overall) takes the
// larger of itself and its partner (i xor stride) where this is true.
constexpr std::array<std::int16_t, 16> takes_larger(int size, int stride, int reg) {
  std::array<std::int16_t, 16> m{};
  for (int p = 0; p < 16; ++p) {
    const int i = 16 * reg + p;
    m[static_cast<size_t>(p)] = (((i & stride) != 0) != ((i & size) != 0)) ? std::int16_t{-1} : std::int16_t{0};
  }
  return m;
}
template <int kSize, int kStride, int kReg>
alignas(32) inline constexpr std::array<std::int16_t, 16> kTakesLarger = takes_larger(kSize, kStride, kReg);

// Each key's partner at distance kStride (1, 2, 4 or 8 keys) within a register.
template <int kStride>
WARPSCOPE_AVX2 inline __m256i partner_keys(__m256i x) {
  if constexpr (kStride == 1)
    return _mm256_shuffle_epi8(x, _mm256_setr_epi8(2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13,  //
                                                   2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13));
  else if constexpr (kStride == 2)
    return _mm256_shuffle_epi32(x, 0xb1);
  else if constexpr (kStride == 4)
    return _mm256_shuffle_epi32(x, 0x4e);
  else
    return _mm256_permute4x64_epi64(x, 0x4e);
}

template <int kSize, int kStride, int kReg>
WARPSCOPE_AVX2 inline __m256i exchange(__m256i x) {
  const __m256i p = partner_keys<kStride>(x);
  const __m256i larger = _mm256_load_si256(reinterpret_cast<const __m256i*>(kTakesLarger<kSize, kStride, kReg>.data()));
  return _mm256_blendv_epi8(_mm256_min_epu16(x, p), _mm256_max_epu16(x, p), larger);
}

template <int kSize, int kStride>
WARPSCOPE_AVX2 inline void exchange_step(__m256i& a, __m256i& b) {
  if constexpr (kStride == 16) {  // across the registers (kSize 32: a takes the smaller)
    const __m256i lo = _mm256_min_epu16(a, b);
    b = _mm256_max_epu16(a, b);
    a = lo;
  } else {
    a = exchange<kSize, kStride, 0>(a);
    b = exchange<kSize, kStride, 1>(b);
  }
}

WARPSCOPE_AVX2 inline void sort_keys(__m256i& a, __m256i& b) {
  exchange_step<2, 1>(a, b);
  exchange_step<4, 2>(a, b);
  exchange_step<4, 1>(a, b);
  exchange_step<8, 4>(a, b);
  exchange_step<8, 2>(a, b);
  exchange_step<8, 1>(a, b);
  exchange_step<16, 8>(a, b);
  exchange_step<16, 4>(a, b);
  exchange_step<16, 2>(a, b);
  exchange_step<16, 1>(a, b);
  exchange_step<32, 16>(a, b);
  exchange_step<32, 8>(a, b);
  exchange_step<32, 4>(a, b);
  exchange_step<32, 2>(a, b);
  exchange_step<32, 1>(a, b);
}

// Bit i: key i (0-31 over a then b) equals key i - 1 under `eq` (key 0 compares with 0).
template <class Eq>
WARPSCOPE_AVX2 inline std::uint32_t equal_to_previous(__m256i a, __m256i b, Eq eq) {
  const __m256i prev_a = _mm256_alignr_epi8(a, _mm256_permute2x128_si256(a, a, 0x08), 14);
  const __m256i prev_b = _mm256_alignr_epi8(b, _mm256_permute2x128_si256(a, b, 0x21), 14);
  // packs interleaves the halves (a 0-7, b 0-7 | a 8-15, b 8-15); the permute restores order.
  const __m256i bytes = _mm256_permute4x64_epi64(_mm256_packs_epi16(eq(a, prev_a), eq(b, prev_b)), 0xd8);
  return static_cast<std::uint32_t>(_mm256_movemask_epi8(bytes));
}

WARPSCOPE_AVX2 inline __m256i same_key(__m256i x, __m256i y) { return _mm256_cmpeq_epi16(x, y); }
WARPSCOPE_AVX2 inline __m256i same_set(__m256i x, __m256i y) {
  return _mm256_cmpeq_epi16(_mm256_srli_epi16(x, 11), _mm256_srli_epi16(y, 11));
}

// Sorted keys -> the busiest set's distinct rows, the lowest such set and all distinct keys.
struct SortedCount {
  int most;       // the busiest set's distinct keys
  int set;        // the lowest set with that many
  int distinct;   // distinct keys in all
};

WARPSCOPE_AVX2 inline SortedCount count_sorted(__m256i a, __m256i b) {
  const std::uint32_t heads = ~equal_to_previous(a, b, same_key) | 1u;  // first of each distinct key
  const std::uint32_t starts = ~equal_to_previous(a, b, same_set) | 1u;  // first of each set (a head too)
  const int distinct = __builtin_popcount(heads);
  // Among the heads, in order: bit r set where head r starts a set. A set's distinct keys
  // are the distance to the next start (or to `distinct`): the longest run of zeros + 1.
  const std::uint64_t start_ranks = _pext_u32(starts, heads) | (1ull << distinct);
  const std::uint64_t gaps = ~start_ranks & ((1ull << distinct) - 1u);
  // Runs of zeros between starts: run_k bit p where gaps has k ones from p on.
  const std::uint64_t run1 = gaps, run2 = run1 & (run1 >> 1), run4 = run2 & (run2 >> 2), run8 = run4 & (run4 >> 4),
                      run16 = run8 & (run8 >> 8);
  std::uint64_t at = ~0ull;  // positions where `longest` ones start
  int longest = 0;
  const auto extend = [&](std::uint64_t run_k, int k) {
    const std::uint64_t longer = at & (run_k >> longest);
    at = longer != 0 ? longer : at;
    longest += longer != 0 ? k : 0;
  };
  extend(run16, 16);
  extend(run8, 8);
  extend(run4, 4);
  extend(run2, 2);
  extend(run1, 1);
  // The busiest set starts at head rank (first run's position - 1), or 0 when every set has one key.
  const unsigned rank = longest == 0 ? 0u : static_cast<unsigned>(__builtin_ctzll(at)) - 1u;
  const int key_index = __builtin_ctz(_pdep_u32(1u << rank, heads));
  alignas(32) std::uint16_t keys[32];
  _mm256_store_si256(reinterpret_cast<__m256i*>(keys), a);
  _mm256_store_si256(reinterpret_cast<__m256i*>(keys + 16), b);
  return {longest + 1, keys[key_index] >> 11, distinct};
}

// One group in 32-bit lanes: the low halves of its addresses (the high halves must all be
// the same, else the group is declined), eight lanes per vector.
template <int kLanes, int kWordsPerLane>
struct Avx2 {
  static constexpr int kShift = kWordsPerLane == 4 ? 2 : kWordsPerLane - 1;
  static constexpr int kSets = kMaxLanes / kWordsPerLane;
  static constexpr int kVecs = kLanes / 8;
  static constexpr int kTableVecs = kSets / 4;  // the table of row bits, four sets to a vector

  // Where set s's row bits live: 4 * (s % kTableVecs) + s / kTableVecs, so that count_sets,
  // which reads the table four sets to a vector, packs set s's count into byte
  // 8 * (s / kTableVecs) + s % kTableVecs (bytes in the order of the sets).
  WARPSCOPE_AVX2 static __m256i slot_of(__m256i set) {
    constexpr int kLog = kTableVecs == 8 ? 3 : kTableVecs == 4 ? 2 : 1;
    return _mm256_add_epi32(_mm256_slli_epi32(_mm256_and_si256(set, _mm256_set1_epi32(kTableVecs - 1)), 2),
                            _mm256_srli_epi32(set, kLog));
  }

  // The sets' distinct rows (popcounts of their row bits): the most, the lowest set with
  // that many, and the sum.
  WARPSCOPE_AVX2 static void count_sets(const std::uint64_t* table, BankSetLoad& res) {
    const __m256i nibble = _mm256_set1_epi8(0x0f), zero = _mm256_setzero_si256();
    const __m256i bits_in = _mm256_setr_epi8(0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,  //
                                             0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4);
    __m256i packed = zero;
#pragma GCC unroll 8
    for (int k = 0; k < kTableVecs; ++k) {
      const __m256i t = _mm256_load_si256(reinterpret_cast<const __m256i*>(table + 4 * k));
      const __m256i bytes = _mm256_add_epi8(_mm256_shuffle_epi8(bits_in, _mm256_and_si256(t, nibble)),
                                            _mm256_shuffle_epi8(bits_in, _mm256_and_si256(_mm256_srli_epi16(t, 4), nibble)));
      packed = _mm256_or_si256(packed, _mm256_slli_epi64(_mm256_sad_epu8(bytes, zero), 8 * k));
    }
    __m128i most = _mm_max_epu8(_mm256_castsi256_si128(packed), _mm256_extracti128_si256(packed, 1));
    most = _mm_max_epu8(most, _mm_srli_si128(most, 8));
    most = _mm_max_epu8(most, _mm_srli_si128(most, 4));
    most = _mm_max_epu8(most, _mm_srli_si128(most, 2));
    most = _mm_max_epu8(most, _mm_srli_si128(most, 1));
    const int wavefronts = _mm_cvtsi128_si32(most) & 0xff;
    const auto at_most = static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_cmpeq_epi8(packed, _mm256_broadcastb_epi8(most))));
    const int byte = __builtin_ctz(at_most);
    const __m256i sums = _mm256_sad_epu8(packed, zero);
    const __m128i sum2 = _mm_add_epi64(_mm256_castsi256_si128(sums), _mm256_extracti128_si256(sums, 1));
    const int sum = _mm_cvtsi128_si32(_mm_add_epi64(sum2, _mm_unpackhi_epi64(sum2, sum2)));
    res.wavefronts = wavefronts;
    res.distinct_words = sum * kWordsPerLane;
    res.worst_bank = (kTableVecs * (byte >> 3) + (byte & 7)) * kWordsPerLane;
    res.worst_lanes = 0;
  }

  WARPSCOPE_AVX2 __attribute__((always_inline)) static bool count_group(const std::uint64_t* addr, std::uint32_t mask, BankSetLoad& res) {
    const std::uint64_t fill = addr[__builtin_ctz(mask)];
    const __m256i fill_low = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(fill)));
    const __m256i fill_high = _mm256_set1_epi32(static_cast<int>(fill >> 32));
    const __m256i one = _mm256_set1_epi32(1), set_mask = _mm256_set1_epi32(kSets - 1);
    __m256i low[kVecs], set[kVecs];
    __m256i any = _mm256_setzero_si256(), far = any, used = any, window = any, same = _mm256_set1_epi32(-1);
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) {
      __m256i l, h;
      split_halves(addr + 8 * v, l, h);
      const std::uint32_t m8 = (mask >> (8 * v)) & 0xffu;
      if (m8 != 0xffu) {  // an inactive lane takes an active one's address: no new row, set or word
        const __m256i active = positions_of_lanes(m8);
        l = _mm256_blendv_epi8(fill_low, l, active);
        h = _mm256_blendv_epi8(fill_high, h, active);
      }
      far = _mm256_or_si256(far, _mm256_xor_si256(h, fill_high));
      any = _mm256_or_si256(any, l);
      same = _mm256_and_si256(same, _mm256_cmpeq_epi32(l, fill_low));
      set[v] = _mm256_and_si256(_mm256_srli_epi32(l, 2 + kShift), set_mask);
      used = _mm256_or_si256(used, _mm256_sllv_epi32(one, set[v]));
      if constexpr (kLanes == 32) window = _mm256_or_si256(window, _mm256_xor_si256(l, fill_low));
      low[v] = l;
    }
    // Addresses 4 GiB apart, or a lane's words not starting a bank set: the general way.
    if (!_mm256_testz_si256(far, far)) return false;
    if (((or_lanes(any) >> 2) & static_cast<std::uint32_t>(kWordsPerLane - 1)) != 0) return false;
    if (one_wavefront<kWordsPerLane>(or_lanes(used), _mm256_movemask_epi8(same) == -1, mask, res))
      return true;
    if constexpr (kLanes == 32) {
      // All rows in one aligned window of 2048 (256 KiB, more than any GPU's shared memory):
      // key = set * 2048 + row % 2048, sorted.
      if (_mm256_testz_si256(window, _mm256_set1_epi32(static_cast<int>(0xfffc0000u)))) {
        __m256i key[kVecs];
        const __m256i row_mask = _mm256_set1_epi32(2047);
#pragma GCC unroll 4
        for (int v = 0; v < kVecs; ++v)
          key[v] = _mm256_or_si256(_mm256_slli_epi32(set[v], 11), _mm256_and_si256(_mm256_srli_epi32(low[v], 7), row_mask));
        __m256i a = _mm256_packus_epi32(key[0], key[1]), b = _mm256_packus_epi32(key[2], key[3]);
        sort_keys(a, b);
        const SortedCount c = count_sorted(a, b);
        res.wavefronts = c.most;
        res.distinct_words = c.distinct * kWordsPerLane;
        res.worst_bank = c.set * kWordsPerLane;
        res.worst_lanes = 0;
        name_worst_lanes(set, mask, res);
        return true;
      }
    }

    // Rows (address / 128, the low 32 bits: the high halves agree) and their span.
    alignas(32) std::uint32_t slot_of_lane[kLanes], row_of_lane[kLanes];
    __m256i row_min = _mm256_set1_epi32(-1), row_max = _mm256_setzero_si256();
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) {
      const __m256i row = _mm256_srli_epi32(low[v], 7);
      row_min = _mm256_min_epu32(row_min, row);
      row_max = _mm256_max_epu32(row_max, row);
      _mm256_store_si256(reinterpret_cast<__m256i*>(slot_of_lane + 8 * v), slot_of(set[v]));
      _mm256_store_si256(reinterpret_cast<__m256i*>(row_of_lane + 8 * v), row);
    }
    if (max_lanes(row_max) - min_lanes(row_min) >= 64) return false;

    // Each lane's row bit (row % 64) ORed into its set's slot of the table.
    alignas(32) std::uint64_t table[kSets];
#pragma GCC unroll 8
    for (int k = 0; k < kTableVecs; ++k)
      _mm256_store_si256(reinterpret_cast<__m256i*>(table + 4 * k), _mm256_setzero_si256());
    // The lanes' slots and rows are read back as plain loads (cheaper than lane extracts).
    asm volatile("" ::: "memory");
#pragma GCC unroll 32
    for (int i = 0; i < kLanes; ++i) table[slot_of_lane[i]] |= 1ull << (row_of_lane[i] & 63u);
    count_sets(table, res);
    name_worst_lanes(set, mask, res);
    return true;
  }

  // The lanes in the busiest set (only a conflict names them).
  WARPSCOPE_AVX2 __attribute__((always_inline)) static void name_worst_lanes(const __m256i* set, std::uint32_t mask,
                                                                             BankSetLoad& res) {
    if (res.wavefronts <= 1) return;
    const __m256i worst = _mm256_set1_epi32(res.worst_bank / kWordsPerLane);
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v)
      res.worst_lanes |= lanes_of_positions(static_cast<std::uint32_t>(
                             _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(set[v], worst)))))
                         << (8 * v);
    res.worst_lanes &= mask;
  }

  WARPSCOPE_AVX2 static std::uint32_t run(const std::uint64_t* address, int lanes, std::uint32_t warp_mask,
                                          BankSetLoad* out) {
    std::uint32_t counted = 0;
    if constexpr (kLanes == 32) {  // one group (lanes is 32)
      counted = warp_mask != 0 && count_group(address, warp_mask, out[0]) ? 1u : 0u;
    } else {
      for (int first = 0, g = 0; first < lanes; first += kLanes, ++g) {
        const std::uint32_t mask = (warp_mask >> first) & ((1u << kLanes) - 1u);
        if (mask == 0 || !count_group(address + first, mask, out[g])) continue;
        out[g].worst_lanes <<= first;
        counted |= 1u << g;
      }
    }
    _mm256_zeroupper();  // the caller is plain x86-64 code (a dirty upper half slows it)
    return counted;
  }
};

// The AVX2 counters where the CPU has AVX2 (and the scalar instructions the compiler
// uses with it), else the portable ones; chosen once, at load time.
CountTable pick_counters() {
  __builtin_cpu_init();  // needed before __builtin_cpu_supports in a static initializer
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt") && __builtin_cpu_supports("bmi") &&
      __builtin_cpu_supports("bmi2"))
    return count_table<Avx2>();
  return count_table<Portable>();
}
const CountTable kCounters = pick_counters();
#else
const CountTable kCounters = count_table<Portable>();
#endif

}  // namespace

std::uint32_t count_bank_sets_portable(const std::uint64_t* address, int lanes, int group_lanes, std::uint32_t mask,
                                       int words_per_lane, BankSetLoad* out) {
  static constexpr CountTable kPortable = count_table<Portable>();
  return run_counter(kPortable, address, lanes, group_lanes, mask, words_per_lane, out);
}

std::uint32_t count_bank_sets(const std::uint64_t* address, int lanes, int group_lanes, std::uint32_t mask,
                              int words_per_lane, BankSetLoad* out) {
  return run_counter(kCounters, address, lanes, group_lanes, mask, words_per_lane, out);
}

}  // namespace warpscope::model
