// global_cost.cc: sectors and lines by counting distinct addresses among active lanes (here,
// or with AVX2 in global_cost_avx2.cc, chosen at load time).
#include "model/global_cost.h"

#include <algorithm>
#include <array>

#include "model/global_touched.h"

namespace warpscope::model {

std::string_view coalescing_name(Coalescing c) {
  switch (c) {
    case Coalescing::Coalesced: return "coalesced";
    case Coalescing::Stride: return "stride";
    case Coalescing::Misalignment: return "misalignment";
    case Coalescing::Scatter: return "scatter";
  }
  return "?";
}

namespace {

using global_detail::StridedFn;
using global_detail::Touched;
using global_detail::Avx2Counters;

// Distinct values of (v >> shift) among n values whose minimum and maximum are known.
// Fast path: fewer than 512 distinct candidates fit a 512-bit set; else count a sorted copy.
int count_distinct_units(const std::uint64_t* v, int n, int shift, std::uint64_t lo, std::uint64_t hi) {
  lo >>= shift;
  hi >>= shift;
  if (hi - lo < 512) {
    std::array<std::uint64_t, 8> bits{};
    for (int i = 0; i < n; ++i) {
      const std::uint64_t k = (v[i] >> shift) - lo;
      bits[k >> 6] |= 1ull << (k & 63u);
    }
    int count = 0;
    for (std::uint64_t b : bits) count += __builtin_popcountll(b);
    return count;
  }
  std::array<std::uint64_t, kWarpSize> sorted{};
  std::copy(v, v + n, sorted.begin());
  std::sort(sorted.begin(), sorted.begin() + n);
  int count = 0;
  for (int i = 0; i < n; ++i) count += i == 0 || (sorted[i] >> shift) != (sorted[i - 1] >> shift);
  return count;
}

// Why more sectors than ideal: the active lanes' addresses, in lane order, either advance by
// a constant stride (the access width: a misaligned contiguous block; wider: a stride) or not.
// `strided` checks all 32 lanes at once (nullptr: lane by lane).
Coalescing classify(const WarpAccess& a, StridedFn strided) {
  const auto named = [&](std::uint64_t stride) {
    return stride == static_cast<std::uint64_t>(a.width) ? Coalescing::Misalignment : Coalescing::Stride;
  };
  if (a.mask == ~0u && strided != nullptr) {
    const std::uint64_t stride = a.address[1] - a.address[0];
    return strided(a.address.data(), stride) ? named(stride) : Coalescing::Scatter;
  }
  std::uint32_t m = a.mask;
  const std::uint64_t first = a.address[__builtin_ctz(m)];
  m &= m - 1;
  if (m == 0) return Coalescing::Misalignment;
  std::uint64_t previous = a.address[__builtin_ctz(m)];
  const std::uint64_t stride = previous - first;
  for (m &= m - 1; m != 0; m &= m - 1) {
    const std::uint64_t v = a.address[__builtin_ctz(m)];
    if (v - previous != stride) return Coalescing::Scatter;
    previous = v;
  }
  return named(stride);
}

// Sectors, lines and distinct elements in one pass, when every sector lies within 512
// sectors of the lowest line's first: a bit per sector; lines are groups of four bits; a
// touched sector's rank among the touched ones indexes a bit set of its elements. False
// otherwise. `increasing`: the addresses rise strictly in lane order, so all n elements are
// distinct.
bool count_near(const std::uint64_t* addr, int n, int width, std::uint64_t lo, std::uint64_t hi, bool increasing,
                Touched& out) {
  const std::uint64_t base = (lo >> 7) << 2;  // sector index of lo's line: lines are bits 4k..4k+3
  if ((hi >> 5) - base >= 512) return false;
  std::array<std::uint64_t, 8> bits{};
  if ((hi >> 5) - base < 64) {  // one word, in a register
    std::uint64_t word = 0;
    for (int i = 0; i < n; ++i) word |= 1ull << ((addr[i] >> 5) - base);
    bits[0] = word;
  } else {
    // Four sets of words, one per lane mod 4, merged after: lanes on one word would
    // otherwise wait on each other's read-modify-write through memory.
    std::array<std::array<std::uint64_t, 8>, 4> part{};
    for (int i = 0; i < n; ++i) {
      const std::uint64_t s = (addr[i] >> 5) - base;
      part[static_cast<size_t>(i & 3)][s >> 6] |= 1ull << (s & 63u);
    }
    for (size_t w = 0; w < bits.size(); ++w) bits[w] = part[0][w] | part[1][w] | part[2][w] | part[3][w];
  }
  std::array<int, 8> before{};  // touched sectors in earlier words
  int sectors = 0, lines = 0;
  for (size_t w = 0; w < bits.size(); ++w) {
    before[w] = sectors;
    sectors += __builtin_popcountll(bits[w]);
    const std::uint64_t any = bits[w] | bits[w] >> 1 | bits[w] >> 2 | bits[w] >> 3;
    lines += __builtin_popcountll(any & 0x1111111111111111ull);
  }
  out.sectors = sectors;
  out.lines = lines;
  if (increasing) {
    out.elements = n;
    return true;
  }
  std::array<std::uint32_t, kWarpSize> elements{};  // per touched sector, by rank
  const int shift = __builtin_ctz(static_cast<unsigned>(width));
  for (int i = 0; i < n; ++i) {
    const std::uint64_t s = (addr[i] >> 5) - base;
    const auto rank = static_cast<size_t>(before[s >> 6] + __builtin_popcountll(bits[s >> 6] & ((1ull << (s & 63u)) - 1)));
    elements[rank] |= 1u << ((addr[i] & 31u) >> shift);
  }
  int distinct = 0;
  for (int r = 0; r < sectors; ++r) distinct += __builtin_popcount(elements[static_cast<size_t>(r)]);
  out.elements = distinct;
  return true;
}

// The portable count: the active lanes' addresses gathered, then bit sets near them (for
// 32-byte sectors in 128-byte lines: shifts 5 and 7), or sorted copies.
__attribute__((noinline)) void count_touched_portable(const std::uint64_t* address, std::uint32_t mask, int width,
                                                      int sector_shift, int line_shift, Touched& out) {
  std::array<std::uint64_t, kWarpSize> addr;  // the active lanes' addresses: the first n are set
  int n = 0;
  std::uint64_t lo = ~0ull, hi = 0;
  bool increasing = true;
  std::uint64_t previous = 0;  // in a register: reading addr[n - 1] back waited on the store each lane
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint64_t v = address[__builtin_ctz(m)];
    increasing &= n == 0 || v > previous;
    previous = v;
    addr[static_cast<size_t>(n++)] = v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (sector_shift == 5 && line_shift == 7 && count_near(addr.data(), n, width, lo, hi, increasing, out)) return;
  out.sectors = count_distinct_units(addr.data(), n, sector_shift, lo, hi);
  out.lines = count_distinct_units(addr.data(), n, line_shift, lo, hi);
  out.elements = count_distinct_units(addr.data(), n, __builtin_ctz(static_cast<unsigned>(width)), lo, hi);
}

const Avx2Counters kAvx2 = global_detail::avx2_counters();

// Fills every field of `cost` (in place: returning it by value had the caller copy it with
// 16-byte loads of fields just stored 4 bytes at a time, which waited for the stores).
void price_global_with(const Arch& arch, const WarpAccess& a, const Avx2Counters& fast, GlobalCost& cost) {
  if (a.mask == 0) {
    cost = GlobalCost{};
    return;
  }
  const auto width = static_cast<std::uint64_t>(a.width);
  const auto sector = static_cast<std::uint64_t>(arch.sector_bytes);
  // Sector and line sizes are powers of two: shifts, no division. The AVX2 counter knows
  // 32-byte sectors in 128-byte lines (every NVIDIA GPU since Maxwell). An aligned access of
  // at most 16 bytes never crosses a sector.
  const int sector_shift = __builtin_ctz(static_cast<unsigned>(arch.sector_bytes));
  const int line_shift = __builtin_ctz(static_cast<unsigned>(arch.line_bytes));
  Touched t{};
  if (sector_shift != 5 || line_shift != 7 || fast.touched == nullptr ||
      !fast.touched(a.address.data(), a.mask, a.width, t))
    count_touched_portable(a.address.data(), a.mask, a.width, sector_shift, line_shift, t);
  // ncu's "ideal" (L2 Theoretical Sectors Global Ideal): the sectors the active lanes' bytes
  // would fill if packed, but never more than were touched (a broadcast is already ideal).
  // Measured: examples/conv3x3 on an H200, whose clamped halo loads repeat addresses.
  const std::uint64_t lane_bytes = static_cast<std::uint64_t>(__builtin_popcount(a.mask)) * width;
  const int ideal = std::min(t.sectors, static_cast<int>((lane_bytes + sector - 1) >> sector_shift));
  cost.requests = 1;
  cost.sectors = t.sectors;
  cost.lines = t.lines;
  cost.ideal_sectors = ideal;
  cost.bytes_requested = static_cast<std::uint32_t>(static_cast<std::uint64_t>(t.elements) * width);
  cost.bytes_moved = static_cast<std::uint32_t>(static_cast<std::uint64_t>(t.sectors) * sector);
  cost.cause = t.sectors > ideal ? classify(a, fast.strided) : Coalescing::Coalesced;
}

}  // namespace

AtomicPasses atomic_passes(const Arch& arch, const WarpAccess& a) {
  std::array<std::uint64_t, kWarpSize> addr{};
  int n = 0;
  for (std::uint32_t m = a.mask; m != 0; m &= m - 1) addr[static_cast<std::size_t>(n++)] = a.address[__builtin_ctz(m)];
  std::sort(addr.begin(), addr.begin() + n);
  // Runs of one address, in address order: a sector's passes are its longest run.
  const int shift = __builtin_ctz(static_cast<unsigned>(arch.sector_bytes));
  AtomicPasses out;
  int sector_max = 0;
  for (int i = 0; i < n;) {
    int j = i + 1;
    while (j < n && addr[static_cast<std::size_t>(j)] == addr[static_cast<std::size_t>(i)]) ++j;
    const int run = j - i;
    out.passes = std::max(out.passes, run);
    sector_max = std::max(sector_max, run);
    const bool sector_ends = j == n || (addr[static_cast<std::size_t>(j)] >> shift) != (addr[static_cast<std::size_t>(i)] >> shift);
    if (sector_ends) {
      out.sectors += sector_max;
      sector_max = 0;
    }
    i = j;
  }
  return out;
}

void price_global(const Arch& arch, const WarpAccess& access, GlobalCost& cost) {
  price_global_with(arch, access, kAvx2, cost);
}

GlobalCost price_global_portable(const Arch& arch, const WarpAccess& access) {
  GlobalCost cost;
  price_global_with(arch, access, Avx2Counters{nullptr, nullptr}, cost);
  return cost;
}

}  // namespace warpscope::model
