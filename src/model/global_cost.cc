// global_cost.cc: sectors and lines by counting distinct addresses among active lanes.
#include "model/global_cost.h"

#include <algorithm>
#include <array>

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
Coalescing classify(const std::uint64_t* addr, int n, int width) {
  if (n < 2) return Coalescing::Misalignment;
  const std::uint64_t stride = addr[1] - addr[0];
  for (int i = 2; i < n; ++i)
    if (addr[i] - addr[i - 1] != stride) return Coalescing::Scatter;
  return stride == static_cast<std::uint64_t>(width) ? Coalescing::Misalignment : Coalescing::Stride;
}

// Sectors, lines and distinct bytes in one pass, when every sector lies within 512 sectors
// of the lowest line's first: a bit per sector; lines are groups of four bits; a touched
// sector's rank among the touched ones indexes a bit set of its elements. False otherwise.
// `increasing`: the addresses rise strictly in lane order, so all n elements are distinct.
bool count_near(const std::uint64_t* addr, int n, int width, std::uint64_t lo, std::uint64_t hi, bool increasing,
                GlobalCost& cost) {
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
  cost.sectors = sectors;
  cost.lines = lines;
  if (increasing) {
    cost.bytes_requested = static_cast<std::uint32_t>(n * width);
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
  cost.bytes_requested = static_cast<std::uint32_t>(distinct * width);
  return true;
}

}  // namespace

GlobalCost price_global(const Arch& arch, const WarpAccess& a) {
  GlobalCost cost;
  std::array<std::uint64_t, kWarpSize> addr;  // the active lanes' addresses: the first n are set
  int n = 0;
  std::uint64_t lo = ~0ull, hi = 0;
  bool increasing = true;
  std::uint64_t previous = 0;  // in a register: reading addr[n - 1] back waited on the store each lane
  for (std::uint32_t m = a.mask; m != 0; m &= m - 1) {
    const std::uint64_t v = a.address[__builtin_ctz(m)];
    increasing &= n == 0 || v > previous;
    previous = v;
    addr[static_cast<size_t>(n++)] = v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (n == 0) return cost;
  const auto width = static_cast<std::uint64_t>(a.width);
  const auto sector = static_cast<std::uint64_t>(arch.sector_bytes);
  cost.requests = 1;
  // An aligned access of at most 16 bytes never crosses a 32-byte sector.
  if (arch.sector_bytes != 32 || arch.line_bytes != 128 || !count_near(addr.data(), n, a.width, lo, hi, increasing, cost)) {
    cost.sectors = count_distinct_units(addr.data(), n, __builtin_ctz(arch.sector_bytes), lo, hi);
    cost.lines = count_distinct_units(addr.data(), n, __builtin_ctz(arch.line_bytes), lo, hi);
    cost.bytes_requested =
        static_cast<std::uint32_t>(static_cast<std::uint64_t>(count_distinct_units(addr.data(), n, __builtin_ctz(a.width), lo, hi)) * width);
  }
  cost.bytes_moved = static_cast<std::uint32_t>(static_cast<std::uint64_t>(cost.sectors) * sector);
  // ncu's "ideal" (L2 Theoretical Sectors Global Ideal): the sectors the active lanes' bytes
  // would fill if packed, but never more than were touched (a broadcast is already ideal).
  // Measured: examples/conv3x3 on an H200, whose clamped halo loads repeat addresses.
  const std::uint64_t lane_bytes = static_cast<std::uint64_t>(n) * width;
  cost.ideal_sectors = std::min(cost.sectors, static_cast<int>((lane_bytes + sector - 1) / sector));
  if (cost.sectors > cost.ideal_sectors) cost.cause = classify(addr.data(), n, a.width);
  return cost;
}

}  // namespace warpscope::model
