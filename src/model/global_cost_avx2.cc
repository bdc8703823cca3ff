// global_cost_avx2.cc: global_touched.h's AVX2 versions, for x86-64 CPUs that have AVX2
// (chosen at load time).
//
// Every lane's element index within one aligned window of 65536 elements (64 KiB of bytes,
// 1 MiB of 16-byte vectors; a window holds whole sectors and lines) is a 16-bit key; after
// sorting the 32 keys (warp_simd.h) equal elements, sectors and lines sit side by side, and
// each count is the number of places where the key, shifted, changes:
//
//   a[lane] (4 bytes): keys 0..31; sectors are keys >> 3: 0,0,..,3,3 -> 4 sectors, 1 line
// An inactive lane takes an active lane's address: it adds nothing.
#include "model/global_touched.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(WARPSCOPE_PORTABLE_ONLY)
#include "model/warp_simd.h"

namespace warpscope::model::global_detail {

namespace {

using namespace simd;

// log2 of the bytes in a sector and in a line (global_cost.cc calls this counter only for
// 32-byte sectors in 128-byte lines).
constexpr int kSectorShift = 5, kLineShift = 7;

// Distinct values of the sorted keys shifted right by `unit_shift`: the places where they
// change (key 0 always starts one: bit 0 compares it with 0).
WARPSCOPE_AVX2 int distinct_units(__m256i a, __m256i b, const Previous& prev, int unit_shift) {
  return 32 - __builtin_popcount(equal_to_previous(a, b, prev, unit_shift) & ~1u);
}

WARPSCOPE_AVX2 bool count_touched(const std::uint64_t* addr, std::uint32_t mask, int width, Touched& out) {
  const int shift = __builtin_ctz(static_cast<unsigned>(width));
  __m256i q[8];
  load_lanes(addr, mask, q);
  const std::uint64_t differ = lane_bits(q).differ;
  bool counted = false;
  if ((differ >> (16 + shift)) == 0) {  // one window: the low 32 bits tell the lanes apart
    const __m256i window = _mm256_set1_epi32((1 << (16 + shift)) - 1);
    __m256i key[4];
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) key[v] = _mm256_srli_epi32(_mm256_and_si256(low_halves(q, v), window), shift);
    __m256i a = _mm256_packus_epi32(key[0], key[1]), b = _mm256_packus_epi32(key[2], key[3]);
    sort_keys(a, b);
    const Previous prev = previous_keys(a, b);
    out.elements = distinct_units(a, b, prev, 0);
    out.sectors = distinct_units(a, b, prev, kSectorShift - shift);
    out.lines = distinct_units(a, b, prev, kLineShift - shift);
    counted = true;
  }
  _mm256_zeroupper();  // the caller is plain x86-64 code (a dirty upper half slows it)
  return counted;
}

// Each lane's address minus the previous lane's, eight vectors of four (the last overlaps the
// one before: lanes 27-31), against the stride.
WARPSCOPE_AVX2 bool strided(const std::uint64_t* addr, std::uint64_t stride) {
  const __m256i s = _mm256_set1_epi64x(static_cast<long long>(stride));
  __m256i same = _mm256_set1_epi64x(-1);
#pragma GCC unroll 8
  for (int v = 0; v < 8; ++v) {
    const std::uint64_t* p = addr + (v < 7 ? 4 * v : 27);
    const __m256i d = _mm256_sub_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 1)),
                                       _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    same = _mm256_and_si256(same, _mm256_cmpeq_epi64(d, s));
  }
  const bool all = _mm256_movemask_epi8(same) == -1;
  _mm256_zeroupper();
  return all;
}

}  // namespace

Avx2Counters avx2_counters() {
  __builtin_cpu_init();  // needed before __builtin_cpu_supports in a static initializer
  if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("popcnt") || !__builtin_cpu_supports("bmi") ||
      !__builtin_cpu_supports("bmi2"))
    return {nullptr, nullptr};
  return {count_touched, strided};
}

}  // namespace warpscope::model::global_detail

#else

namespace warpscope::model::global_detail {
Avx2Counters avx2_counters() { return {nullptr, nullptr}; }
}  // namespace warpscope::model::global_detail

#endif
