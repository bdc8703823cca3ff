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

}  // namespace

GlobalCost price_global(const Arch& arch, const WarpAccess& a) {
  GlobalCost cost;
  std::array<std::uint64_t, kWarpSize> addr{};
  int n = 0;
  std::uint64_t lo = ~0ull, hi = 0;
  for (std::uint32_t m = a.mask; m != 0; m &= m - 1) {
    const std::uint64_t v = a.address[__builtin_ctz(m)];
    addr[static_cast<size_t>(n++)] = v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (n == 0) return cost;
  const auto width = static_cast<std::uint64_t>(a.width);
  const auto sector = static_cast<std::uint64_t>(arch.sector_bytes);
  cost.requests = 1;
  // An aligned access of at most 16 bytes never crosses a 32-byte sector.
  cost.sectors = count_distinct_units(addr.data(), n, __builtin_ctz(arch.sector_bytes), lo, hi);
  cost.lines = count_distinct_units(addr.data(), n, __builtin_ctz(arch.line_bytes), lo, hi);
  cost.bytes_requested = static_cast<std::uint64_t>(count_distinct_units(addr.data(), n, __builtin_ctz(a.width), lo, hi)) * width;
  cost.bytes_moved = static_cast<std::uint64_t>(cost.sectors) * sector;
  // ncu's "ideal" (L2 Theoretical Sectors Global Ideal): the sectors the active lanes' bytes
  // would fill if packed, but never more than were touched (a broadcast is already ideal).
  // Measured: examples/conv3x3 on an H200, whose clamped halo loads repeat addresses.
  const std::uint64_t lane_bytes = static_cast<std::uint64_t>(n) * width;
  cost.ideal_sectors = std::min(cost.sectors, static_cast<int>((lane_bytes + sector - 1) / sector));
  if (cost.sectors > cost.ideal_sectors) cost.cause = classify(addr.data(), n, a.width);
  return cost;
}

}  // namespace warpscope::model
