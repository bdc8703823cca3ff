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

struct LaneKeys {
  alignas(32) std::array<std::uint64_t, kMaxLanes> set;  // group-relative lane order
  alignas(32) std::array<std::uint64_t, kMaxLanes> row;  // address / 128
  std::uint64_t lo_row = 0, hi_row = 0;                  // set by the caller before count()
  std::uint64_t any_word = 0;   // OR of every lane's word index (alignment check)
  std::uint32_t used_sets = 0;  // bit s: some lane is in set s
  bool same_address = false;    // every lane reads one address (a broadcast)
};

// The two halves of the count, inlined into each caller (so the AVX2 version runs them as
// AVX2 code too). one_wavefront: true (and `out` filled) when every active lane has a set
// of its own or all read one address; no row needs counting then.
template <int kWordsPerLane>
__attribute__((always_inline)) inline bool one_wavefront(const LaneKeys& k, std::uint32_t mask, BankSetLoad& out) {
  const bool own_sets = __builtin_popcount(k.used_sets) == __builtin_popcount(mask);
  if (!own_sets && !k.same_address) return false;
  out.wavefronts = 1;
  out.distinct_words = (own_sets ? __builtin_popcount(mask) : 1) * kWordsPerLane;
  out.worst_bank = __builtin_ctz(k.used_sets) * kWordsPerLane;
  out.worst_lanes = 0;
  return true;
}

// Distinct rows per set; needs lo_row and hi_row. False when they span 64 rows or more.
template <int kLanes, int kWordsPerLane>
__attribute__((always_inline)) inline bool count_rows(const LaneKeys& k, BankSetLoad& out) {
  if (k.hi_row - k.lo_row >= 64) return false;
  constexpr int kSets = kMaxLanes / kWordsPerLane;
  std::array<std::uint64_t, kSets> rows{};
#pragma GCC unroll 32
  for (int i = 0; i < kLanes; ++i) rows[k.set[static_cast<size_t>(i)]] |= 1ull << (k.row[static_cast<size_t>(i)] & 63u);
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
  return true;
}

// Runs Count<kLanes, kWordsPerLane>::run(args...) for the shapes the hardware has.
template <template <int, int> class Count, class... Args>
std::uint32_t dispatch(int group_lanes, int words_per_lane, Args&&... args) {
  switch (group_lanes * 8 + words_per_lane) {
    case 32 * 8 + 1: return Count<32, 1>::run(args...);
    case 32 * 8 + 2: return Count<32, 2>::run(args...);
    case 32 * 8 + 4: return Count<32, 4>::run(args...);
    case 16 * 8 + 1: return Count<16, 1>::run(args...);
    case 16 * 8 + 2: return Count<16, 2>::run(args...);
    case 16 * 8 + 4: return Count<16, 4>::run(args...);
    case 8 * 8 + 1: return Count<8, 1>::run(args...);
    case 8 * 8 + 2: return Count<8, 2>::run(args...);
    case 8 * 8 + 4: return Count<8, 4>::run(args...);
    default: return 0;
  }
}

template <int kLanes, int kWordsPerLane>
struct Portable {
  static std::uint32_t run(const std::uint64_t* address, int lanes, std::uint32_t warp_mask, BankSetLoad* out) {
    constexpr unsigned kShift = kWordsPerLane == 4 ? 2u : static_cast<unsigned>(kWordsPerLane - 1);
    constexpr std::uint64_t kSetMask = (32u >> kShift) - 1u;
    std::uint32_t counted = 0;
    for (int first = 0, g = 0; first < lanes; first += kLanes, ++g) {
      const std::uint32_t mask = kLanes == 32 ? warp_mask : (warp_mask >> first) & ((1u << kLanes) - 1u);
      if (mask == 0) continue;
      const std::uint64_t* addr = address + first;
      const std::uint64_t fill = addr[__builtin_ctz(mask)];
      LaneKeys k;
      k.lo_row = ~0ull;
      k.same_address = true;
      std::uint64_t any = 0;
      for (int i = 0; i < kLanes; ++i) {
        const std::uint64_t keep = 0 - static_cast<std::uint64_t>((mask >> i) & 1u);
        const std::uint64_t a = (addr[i] & keep) | (fill & ~keep);
        any |= a;
        k.set[static_cast<size_t>(i)] = (a >> (2u + kShift)) & kSetMask;
        k.used_sets |= 1u << k.set[static_cast<size_t>(i)];
        k.same_address &= a == fill;
        k.row[static_cast<size_t>(i)] = a >> 7;
        k.lo_row = std::min(k.lo_row, a >> 7);
        k.hi_row = std::max(k.hi_row, a >> 7);
      }
      // A lane's words must start a bank set (an aligned access).
      if (((any >> 2) & static_cast<std::uint64_t>(kWordsPerLane - 1)) != 0) continue;
      BankSetLoad& o = out[g];
      if (!one_wavefront<kWordsPerLane>(k, mask, o) && !count_rows<kLanes, kWordsPerLane>(k, o)) continue;
      if (o.wavefronts > 1)
        for (int i = 0; i < kLanes; ++i)
          o.worst_lanes |= static_cast<std::uint32_t>(k.set[static_cast<size_t>(i)] * kWordsPerLane ==
                                                      static_cast<std::uint64_t>(o.worst_bank))
                           << i;
      o.worst_lanes = (o.worst_lanes & mask) << first;
      counted |= 1u << g;
    }
    return counted;
  }
};

#ifdef WARPSCOPE_HAVE_AVX2_PATH
// The four 64-bit lanes of v, through registers: finish() reads lanes one at a time, and a
// load from the upper half of a 32-byte store is not always forwarded.
__attribute__((target("avx2"))) inline std::array<std::uint64_t, 4> lanes_of(__m256i v) {
  const __m128i low = _mm256_castsi256_si128(v), high = _mm256_extracti128_si256(v, 1);
  return {static_cast<std::uint64_t>(_mm_cvtsi128_si64(low)), static_cast<std::uint64_t>(_mm_extract_epi64(low, 1)),
          static_cast<std::uint64_t>(_mm_cvtsi128_si64(high)), static_cast<std::uint64_t>(_mm_extract_epi64(high, 1))};
}

// Stores four lanes as two 16-byte halves (the same forwarding concern).
__attribute__((target("avx2"))) inline void store_halves(std::uint64_t* to, __m256i v) {
  _mm_store_si128(reinterpret_cast<__m128i*>(to), _mm256_castsi256_si128(v));
  _mm_store_si128(reinterpret_cast<__m128i*>(to + 2), _mm256_extracti128_si256(v, 1));
}

// Lanes j..j+3's addresses, an inactive lane's replaced by an active one's (`fill`).
__attribute__((target("avx2"))) inline __m256i four_lanes(const std::uint64_t* addr, int j, std::uint32_t mask,
                                                           std::uint32_t all, __m256i fill) {
  const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(addr + j));
  if (mask == all) return a;
  const __m256i lane_bit = _mm256_set_epi64x(8, 4, 2, 1);
  const __m256i active = _mm256_and_si256(_mm256_set1_epi64x((mask >> j) & 0xfu), lane_bit);
  return _mm256_blendv_epi8(fill, a, _mm256_cmpeq_epi64(active, lane_bit));
}

// Each lane's bank set: (address / 4 / words per lane) % sets.
template <int kShift>
__attribute__((target("avx2"))) inline __m256i set_of(__m256i a) {
  return _mm256_and_si256(_mm256_srli_epi64(a, 2 + kShift), _mm256_set1_epi64x((32 >> kShift) - 1));
}

template <int kLanes, int kWordsPerLane>
struct Avx2 {
  __attribute__((target("avx2,popcnt"))) static std::uint32_t run(const std::uint64_t* address, int lanes,
                                                                   std::uint32_t warp_mask, BankSetLoad* out) {
    constexpr int kShift = kWordsPerLane == 4 ? 2 : kWordsPerLane - 1;
    const __m256i one = _mm256_set1_epi64x(1);
    constexpr std::uint32_t kAll = kLanes == 32 ? 0xffffffffu : (1u << kLanes) - 1u;
    std::uint32_t counted = 0;
    for (int first = 0, g = 0; first < lanes; first += kLanes, ++g) {
      const std::uint32_t mask = kLanes == 32 ? warp_mask : (warp_mask >> first) & ((1u << kLanes) - 1u);
      if (mask == 0) continue;
      const std::uint64_t* addr = address + first;
      const __m256i fill = _mm256_set1_epi64x(static_cast<long long>(addr[__builtin_ctz(mask)]));
      // First pass: the sets used, one address for all, alignment. Enough for one wavefront.
      __m256i any = _mm256_setzero_si256(), used = _mm256_setzero_si256(), same = _mm256_set1_epi64x(-1);
#pragma GCC unroll 8
      for (int j = 0; j < kLanes; j += 4) {
        const __m256i a = four_lanes(addr, j, mask, kAll, fill);
        any = _mm256_or_si256(any, a);
        same = _mm256_and_si256(same, _mm256_cmpeq_epi64(a, fill));
        used = _mm256_or_si256(used, _mm256_sllv_epi64(one, set_of<kShift>(a)));
      }
      const auto o = lanes_of(any), u = lanes_of(used);
      // A lane's words must start a bank set (an aligned access).
      if ((((o[0] | o[1] | o[2] | o[3]) >> 2) & static_cast<std::uint64_t>(kWordsPerLane - 1)) != 0) continue;
      LaneKeys k;
      k.used_sets = static_cast<std::uint32_t>(u[0] | u[1] | u[2] | u[3]);
      k.same_address = _mm256_movemask_pd(_mm256_castsi256_pd(same)) == 0xf;
      BankSetLoad& res = out[g];
      if (!one_wavefront<kWordsPerLane>(k, mask, res)) {
        // Second pass: each lane's set and row, and the rows' span. Rows are
        // addresses / 128 < 2^57, so signed 64-bit comparisons order them.
        __m256i lo = _mm256_set1_epi64x(0x7fffffffffffffffLL), hi = _mm256_setzero_si256();
#pragma GCC unroll 8
        for (int j = 0; j < kLanes; j += 4) {
          const __m256i a = four_lanes(addr, j, mask, kAll, fill);
          const __m256i row = _mm256_srli_epi64(a, 7);
          store_halves(k.set.data() + j, set_of<kShift>(a));
          store_halves(k.row.data() + j, row);
          lo = _mm256_blendv_epi8(lo, row, _mm256_cmpgt_epi64(lo, row));
          hi = _mm256_blendv_epi8(hi, row, _mm256_cmpgt_epi64(row, hi));
        }
        const auto l = lanes_of(lo), h = lanes_of(hi);
        k.lo_row = std::min(std::min(l[0], l[1]), std::min(l[2], l[3]));
        k.hi_row = std::max(std::max(h[0], h[1]), std::max(h[2], h[3]));
        if (!count_rows<kLanes, kWordsPerLane>(k, res)) continue;
      }
      if (res.wavefronts > 1) {  // name the lanes in the worst set
        const __m256i worst = _mm256_set1_epi64x(res.worst_bank / kWordsPerLane);
        for (int j = 0; j < kLanes; j += 4) {
          const __m256i set = _mm256_load_si256(reinterpret_cast<const __m256i*>(k.set.data() + j));
          res.worst_lanes |=
              static_cast<std::uint32_t>(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(set, worst)))) << j;
        }
      }
      res.worst_lanes = (res.worst_lanes & mask) << first;
      counted |= 1u << g;
    }
    _mm256_zeroupper();  // the caller is plain x86-64 code (a dirty upper half slows it)
    return counted;
  }
};

bool cpu_has_avx2() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
  return has;
}
#endif

}  // namespace

std::uint32_t count_bank_sets_portable(const std::uint64_t* address, int lanes, int group_lanes, std::uint32_t mask,
                                       int words_per_lane, BankSetLoad* out) {
  return dispatch<Portable>(group_lanes, words_per_lane, address, lanes, mask, out);
}

std::uint32_t count_bank_sets(const std::uint64_t* address, int lanes, int group_lanes, std::uint32_t mask,
                              int words_per_lane, BankSetLoad* out) {
#ifdef WARPSCOPE_HAVE_AVX2_PATH
  if (cpu_has_avx2()) return dispatch<Avx2>(group_lanes, words_per_lane, address, lanes, mask, out);
#endif
  return count_bank_sets_portable(address, lanes, group_lanes, mask, words_per_lane, out);
}

}  // namespace warpscope::model
