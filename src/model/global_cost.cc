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

// Number of distinct values in a sorted range.
int count_distinct(const std::uint64_t* begin, const std::uint64_t* end, std::uint64_t unit) {
  int n = 0;
  std::uint64_t last = 0;
  for (const std::uint64_t* p = begin; p != end; ++p) {
    const std::uint64_t v = *p / unit;
    if (n == 0 || v != last) ++n;
    last = v;
  }
  return n;
}

Coalescing classify(const std::uint64_t* sorted, int n, int width, const GlobalCost& cost) {
  if (cost.sectors <= cost.ideal_sectors) return Coalescing::Coalesced;
  // Distinct addresses, ascending.
  std::array<std::uint64_t, kWarpSize> u{};
  int m = 0;
  for (int i = 0; i < n; ++i)
    if (m == 0 || sorted[i] != u[static_cast<size_t>(m - 1)]) u[static_cast<size_t>(m++)] = sorted[i];
  if (m < 2) return Coalescing::Misalignment;
  const std::uint64_t stride = u[1] - u[0];
  bool constant = true;
  for (int i = 2; i < m && constant; ++i) constant = u[static_cast<size_t>(i)] - u[static_cast<size_t>(i - 1)] == stride;
  if (constant && stride == static_cast<std::uint64_t>(width)) return Coalescing::Misalignment;
  if (constant) return Coalescing::Stride;
  return Coalescing::Scatter;
}

}  // namespace

GlobalCost price_global(const Arch& arch, const WarpAccess& a) {
  GlobalCost cost;
  std::array<std::uint64_t, kWarpSize> addr{};
  int n = 0;
  for (int lane = 0; lane < kWarpSize; ++lane)
    if (a.active(lane)) addr[static_cast<size_t>(n++)] = a.address[lane];
  if (n == 0) return cost;
  std::sort(addr.begin(), addr.begin() + n);
  const auto width = static_cast<std::uint64_t>(a.width);
  cost.requests = 1;
  // An aligned access of at most 16 bytes never crosses a 32-byte sector.
  cost.sectors = count_distinct(addr.data(), addr.data() + n, static_cast<std::uint64_t>(arch.sector_bytes));
  cost.lines = count_distinct(addr.data(), addr.data() + n, static_cast<std::uint64_t>(arch.line_bytes));
  cost.bytes_requested = static_cast<std::uint64_t>(count_distinct(addr.data(), addr.data() + n, 1)) * width;
  cost.bytes_moved = static_cast<std::uint64_t>(cost.sectors) * static_cast<std::uint64_t>(arch.sector_bytes);
  cost.ideal_sectors = static_cast<int>((cost.bytes_requested + static_cast<std::uint64_t>(arch.sector_bytes) - 1) /
                                        static_cast<std::uint64_t>(arch.sector_bytes));
  cost.cause = classify(addr.data(), n, a.width, cost);
  return cost;
}

}  // namespace warpscope::model
