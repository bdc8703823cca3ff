// bank_sets_avx2.cc: the AVX2 counters of bank_sets.h, for x86-64 CPUs that have AVX2
// (chosen at load time; the rest of the program is plain x86-64).
//
// Per group, in 32-bit lanes: the lanes' sets, the sets used and whether all lanes read one
// address, with no branch on the addresses (an inactive lane takes an active lane's
// address, which adds no row, set or word). One wavefront when every lane has a set of its
// own or all read one address; otherwise sorting (bank_sets_sorted.h) or the table of row
// bits (bank_sets_common.h's rule, with popcounts in vectors).
#include "model/bank_sets_common.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(WARPSCOPE_PORTABLE_ONLY)
#include "model/bank_sets_sorted.h"

namespace warpscope::model::bank_sets_detail {

namespace {

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

// Groups of kLanes in 32-bit lanes: the low halves of their addresses (the high halves must
// all be the same, else declined), eight lanes per vector. A whole warp is sorted at once
// (bank_sets_sorted.h) when its rows lie in one window of 1024 and its groups' sets fit a
// 5-bit key (every shape but 8-lane groups of narrow words); otherwise each group goes
// through the table of row bits.
template <int kLanes, int kWordsPerLane>
struct Avx2 {
  static constexpr int kShift = kSetShift<kWordsPerLane>;
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

  // A whole warp at once, its groups sorted together: each active lane's key is
  // (group * sets per group + set, row % 1024), the group's sets above every lower group's
  // (kSupersets of them, at most 32: 5 bits), so one sort lines up every group's keys.
  // Fills out[g] for each group with an active lane and returns those groups' bits; 0: the
  // general way (lanes, in groups other than 32); -1: group by group (rows not in one
  // aligned window of 1024: the table; a lane's words not starting a bank set: that group
  // the general way). The checks need no per-lane work: over all lanes, the bits in which
  // addresses differ from lane 0's and the bits any has (warp_simd.h lane_bits).
  static constexpr int kGroups = 32 / kLanes;
  static constexpr int kSupersets = kGroups * kSets;
  static constexpr bool kSortsWarp = kSupersets <= 32;

  // The active lanes of group g, in the group's own bits (lane g * kLanes is bit 0).
  static std::uint32_t lanes_of_group(std::uint32_t warp_mask, int g) {
    if constexpr (kLanes == 32)
      return warp_mask;
    else
      return (warp_mask >> (g * kLanes)) & ((1u << kLanes) - 1u);
  }

  WARPSCOPE_AVX2 __attribute__((always_inline)) static int count_by_sorting(const std::uint64_t* addr,
                                                                            std::uint32_t mask, BankLoad load,
                                                                            BankSetLoad* out) {
    const bool lanes = load == BankLoad::Lanes;  // value-returning atomics: one lane, one access
    if constexpr (kLanes != 32)
      if (lanes) return 0;
    __m256i q[8];
    load_lanes(addr, mask, q);
    const auto [any, differ] = lane_bits(q);
    if ((differ >> (7 + kRowBits)) != 0) return -1;
    if constexpr (kWordsPerLane > 1)
      if (((any >> 2) & static_cast<std::uint64_t>(kWordsPerLane - 1)) != 0) return -1;
    // Low halves (the high ones agree), lanes 0 1 4 5 2 3 6 7 in each vector (split_halves).
    __m256i low[4], set[4];
    const __m256i one = _mm256_set1_epi32(1), set_mask = _mm256_set1_epi32(kSets - 1);
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) {
      low[v] = low_halves(q, v);
      set[v] = _mm256_and_si256(_mm256_srli_epi32(low[v], 2 + kShift), set_mask);
    }
    std::uint32_t present = 0;  // a bit per superset among the active lanes
    if constexpr (kLanes == 32) {
      __m256i used = _mm256_setzero_si256();  // an inactive lane repeats an active lane's set
#pragma GCC unroll 4
      for (int v = 0; v < 4; ++v) used = _mm256_or_si256(used, _mm256_sllv_epi32(one, set[v]));
      present = or_lanes(used);
      if (one_wavefront<kWordsPerLane>(present, !lanes && differ == 0, mask, out[0])) {
        name_worst_lanes(set, mask, lanes, out[0]);
        return 1;
      }
    } else {  // one wavefront each, if every group's lanes have sets of their own
      std::uint32_t counted = 0;
      bool all = true;
#pragma GCC unroll 4
      for (int g = 0; g < kGroups; ++g) {
        const std::uint32_t group_mask = lanes_of_group(mask, g);
        if (group_mask == 0) continue;
        __m256i bits = _mm256_setzero_si256();
#pragma GCC unroll 2
        for (int v = g * kLanes / 8; v < (g + 1) * kLanes / 8; ++v) {
          __m256i b = _mm256_sllv_epi32(one, set[v]);  // an inactive lane's set is another group's
          const std::uint32_t m8 = (mask >> (8 * v)) & 0xffu;
          if (m8 != 0xffu) b = _mm256_and_si256(b, positions_of_lanes(m8));
          bits = _mm256_or_si256(bits, b);
        }
        const std::uint32_t group_used = or_lanes(bits);
        present |= group_used << (g * kSets);
        all &= one_wavefront<kWordsPerLane>(group_used, differ == 0, group_mask, out[g]);
        counted |= 1u << g;
      }
      if (all) return static_cast<int>(counted);
    }
    __m256i key[4];
    const __m256i row_mask = _mm256_set1_epi32((1 << kRowBits) - 1);
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) {
      constexpr int kVecsPerGroup = kLanes / 8;  // lanes 8v .. 8v + 7 are in group v / kVecsPerGroup
      const __m256i superset = _mm256_add_epi32(set[v], _mm256_set1_epi32(v / kVecsPerGroup * kSets));
      key[v] = _mm256_or_si256(_mm256_slli_epi32(superset, kRowBits), _mm256_and_si256(_mm256_srli_epi32(low[v], 7), row_mask));
    }
    // One group, distinct words: an inactive lane repeats an active lane's key, which adds
    // nothing. Otherwise it must not count (another group's key, or a lane), so it takes a key
    // that sorts after every real one.
    int real = 32;
    if (mask != ~0u && (lanes || kGroups > 1)) {
      const __m256i inactive = _mm256_set1_epi32(kInactiveKey);
#pragma GCC unroll 4
      for (int v = 0; v < 4; ++v) key[v] = _mm256_blendv_epi8(inactive, key[v], positions_of_lanes((mask >> (8 * v)) & 0xffu));
      real = __builtin_popcount(mask);
    }
    const __m256i unsorted_a = _mm256_packus_epi32(key[0], key[1]), unsorted_b = _mm256_packus_epi32(key[2], key[3]);
    __m256i a = unsorted_a, b = unsorted_b;
    sort_keys(a, b);
    const SortedMarks marked = mark_sorted(a, b, real);
    std::uint32_t counted = 0;
    int first = 0;  // a group's keys follow the lower groups' active keys
#pragma GCC unroll 4
    for (int g = 0; g < kGroups; ++g) {
      const std::uint32_t group_mask = lanes_of_group(mask, g);
      if (group_mask == 0) continue;
      const int end = kGroups == 1 ? real : first + __builtin_popcount(group_mask);
      const SortedCount c = count_sorted(marked, present, first, end, load);
      first = end;
      BankSetLoad& res = out[g];
      res.wavefronts = c.most;
      res.distinct_words = c.distinct * kWordsPerLane;
      res.worst_bank = (c.set % kSets) * kWordsPerLane;
      res.worst_lanes = 0;
      counted |= 1u << g;
      if (lanes || c.most > 1) {  // the lanes whose keys are in the busiest set
        const __m256i worst = _mm256_set1_epi16(static_cast<short>(c.set));
        const __m256i in_a = _mm256_cmpeq_epi16(_mm256_srli_epi16(unsorted_a, kRowBits), worst);
        const __m256i in_b = _mm256_cmpeq_epi16(_mm256_srli_epi16(unsorted_b, kRowBits), worst);
        // The keys' order: split_halves' (0 1 4 5 | 2 3 6 7 per eight lanes), then packus's
        // (per 128-bit half, four from each source): bits 0-15 of the mask are lanes 0 1 4 5
        // 8 9 ..., bits 16-31 lanes 2 3 6 7 10 11 ...
        const auto m = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_packs_epi16(in_a, in_b)));
        res.worst_lanes = (_pdep_u32(m & 0xffffu, 0x33333333u) | _pdep_u32(m >> 16, 0xccccccccu)) & mask;
      }
    }
    return static_cast<int>(counted);
  }

  // One group by the table of row bits (distinct words only: lanes are counted by sorting).
  WARPSCOPE_AVX2 __attribute__((always_inline)) static bool count_group(const std::uint64_t* addr, std::uint32_t mask,
                                                                        BankLoad load, BankSetLoad& res) {
    if (load == BankLoad::Lanes) return false;
    const std::uint64_t fill = addr[__builtin_ctz(mask)];
    const __m256i fill_low = _mm256_set1_epi32(static_cast<int>(static_cast<std::uint32_t>(fill)));
    const __m256i fill_high = _mm256_set1_epi32(static_cast<int>(fill >> 32));
    const __m256i one = _mm256_set1_epi32(1), set_mask = _mm256_set1_epi32(kSets - 1);
    __m256i low[kVecs], set[kVecs];
    __m256i any = _mm256_setzero_si256(), far = any, used = any, same = _mm256_set1_epi32(-1);
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
      low[v] = l;
    }
    // Addresses 4 GiB apart, or a lane's words not starting a bank set: the general way.
    if (!_mm256_testz_si256(far, far)) return false;
    if (((or_lanes(any) >> 2) & static_cast<std::uint32_t>(kWordsPerLane - 1)) != 0) return false;
    if (one_wavefront<kWordsPerLane>(or_lanes(used), _mm256_movemask_epi8(same) == -1, mask, res)) return true;

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
    name_worst_lanes(set, mask, false, res);
    return true;
  }

  // The lanes in the busiest set (distinct words: only a conflict names them).
  WARPSCOPE_AVX2 __attribute__((always_inline)) static void name_worst_lanes(const __m256i* set, std::uint32_t mask,
                                                                             bool always, BankSetLoad& res) {
    if (!always && res.wavefronts <= 1) return;
    const __m256i worst = _mm256_set1_epi32(res.worst_bank / kWordsPerLane);
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v)
      res.worst_lanes |= lanes_of_positions(static_cast<std::uint32_t>(
                             _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(set[v], worst)))))
                         << (8 * v);
    res.worst_lanes &= mask;
  }

  WARPSCOPE_AVX2 static std::uint32_t run(const std::uint64_t* address, int lanes, std::uint32_t warp_mask,
                                          BankLoad load, BankSetLoad* out) {
    std::uint32_t counted = 0;
    int sorted = -1;  // all 32 lanes at once, where their sets fit one key
    if constexpr (kSortsWarp)
      if (lanes == 32 && warp_mask != 0) sorted = count_by_sorting(address, warp_mask, load, out);
    if (sorted >= 0) {
      counted = static_cast<std::uint32_t>(sorted);
    } else if constexpr (kLanes == 32) {  // one group (lanes is 32)
      counted = warp_mask != 0 && count_group(address, warp_mask, load, out[0]) ? 1u : 0u;
    } else {
      for (int first = 0, g = 0; first < lanes; first += kLanes, ++g) {
        const std::uint32_t mask = lanes_of_group(warp_mask, g);
        if (mask == 0 || !count_group(address + first, mask, load, out[g])) continue;
        out[g].worst_lanes <<= first;
        counted |= 1u << g;
      }
    }
    _mm256_zeroupper();  // the caller is plain x86-64 code (a dirty upper half slows it)
    return counted;
  }

  // The table apart, so that warp's frame stays small (the table's arrays need 32-byte
  // alignment and half a kilobyte).
  WARPSCOPE_AVX2 __attribute__((noinline)) static bool count_group_apart(const std::uint64_t* addr, std::uint32_t mask,
                                                                         BankLoad load, BankSetLoad& res) {
    return count_group(addr, mask, load, res);
  }

  // A warp as one group (kLanes is 32; mask not 0), priced.
  WARPSCOPE_AVX2 static bool warp(const std::uint64_t* address, std::uint32_t mask, BankLoad load,
                                  int wavefront_words_log2, SharedCost& cost) {
    BankSetLoad g;
    const int sorted = count_by_sorting(address, mask, load, &g);
    if (sorted > 0 || (sorted < 0 && count_group_apart(address, mask, load, g))) {
      price_whole_warp(g, wavefront_words_log2, cost);
      return true;
    }
    return false;
  }
};

}  // namespace

bool avx2_counters(CountTable& table, WarpTable& warp) {
  __builtin_cpu_init();  // needed before __builtin_cpu_supports in a static initializer
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("bmi") ||
      !__builtin_cpu_supports("bmi2"))
    return false;
  table = count_table<Avx2>();
  warp = warp_table<Avx2>();
  return true;
}

}  // namespace warpscope::model::bank_sets_detail

#else

namespace warpscope::model::bank_sets_detail {
bool avx2_counters(CountTable&, WarpTable&) { return false; }
}  // namespace warpscope::model::bank_sets_detail

#endif
