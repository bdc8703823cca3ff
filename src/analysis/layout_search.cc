// layout_search.cc: enumerating layouts and re-pricing an array's accesses under each.
#include "analysis/layout_search.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <tuple>

#include "analysis/remap_listener.h"
#include "model/access_cost.h"

namespace warpscope::analysis {

std::uint64_t element_bytes(const std::vector<RecordedAccess>& accesses) {
  std::uint64_t elem = 0;
  for (const RecordedAccess& r : accesses) {
    const auto b = static_cast<std::uint64_t>(lane_bytes(r.access));
    elem = elem == 0 ? b : std::min(elem, b);
  }
  return elem == 0 ? 4 : elem;
}

std::vector<layout::Layout> candidate_layouts(std::uint64_t size, std::uint64_t elem, bool hardware_only) {
  std::vector<layout::Layout> out;
  if (hardware_only) {
    // The hardware swizzles within each 128-byte row (bits 4-6 by bits 7-9), so a row stays a
    // row: the array need not be a whole number of rows (a dynamic buffer with barriers after
    // its tiles), only span one swizzle period.
    for (int b = 1; b <= 3; ++b)
      if (const layout::Swizzle sw{b, 4, 3}; size >= (std::uint64_t{1} << (4 + 3 + b))) out.push_back(sw);
    return out;
  }
  if (elem == 0 || !std::has_single_bit(elem)) return out;
  // Every row pitch of whole elements that divides the array: powers of two, and the others
  // (float tile[24][24] has 96-byte rows, a 18x18 halo tile 72-byte ones).
  std::vector<std::uint64_t> rows;
  for (std::uint64_t r = std::max<std::uint64_t>(32, 2 * elem); r <= 1024 && r <= size / 2; r += elem)
    if (size % r == 0) rows.push_back(r);
  for (std::uint64_t r : rows)
    for (std::uint64_t p = 1; p * elem <= 128; ++p) out.push_back(layout::Padding{r, p * elem});  // up to a wavefront
  const int m0 = std::countr_zero(elem);
  for (int m = m0; m < 7; ++m)
    for (int b = 1; m + b <= 7; ++b)
      for (int s = b; m + s + b <= 40; ++s) {
        const layout::Swizzle sw{b, m, s};
        if (!layout::swizzle_fits(sw, size)) {
          if ((std::uint64_t{1} << (m + s + b)) > size) break;  // larger S only reaches further
          continue;
        }
        out.push_back(sw);
      }
  for (std::uint64_t r : rows)
    if (r / elem >= 2) out.push_back(layout::Skew{r, elem});
  return out;
}

int arithmetic_cost(const layout::Layout& layout) {
  struct Cost {
    int operator()(const layout::Identity&) const { return 0; }
    int operator()(const layout::Padding&) const { return 1; }
    int operator()(const layout::Swizzle&) const { return 2; }
    int operator()(const layout::Skew&) const { return 3; }
  };
  return std::visit(Cost{}, layout);
}

std::optional<std::uint64_t> price_under(const model::Arch& arch, const emu::Region& region,
                                         const std::vector<RecordedAccess>& accesses, const layout::Layout& layout,
                                         std::uint64_t elem_bytes, std::uint64_t* ideal) {
  const std::vector<RegionRemap> remaps{RegionRemap{region.base, region.size, layout}};
  std::uint64_t total = 0, ideal_total = 0;
  for (const RecordedAccess& r : accesses) {
    if (!keeps_lanes_whole(r.access, remaps[0], elem_bytes)) return std::nullopt;
    const model::WarpAccess moved = remap_access(r.access, remaps);
    if (!model::validate(moved).ok()) return std::nullopt;
    const model::AccessCost cost = model::price_valid(arch, moved);
    if (!cost.shared) continue;
    total += r.count * static_cast<std::uint64_t>(cost.shared->wavefronts);
    ideal_total += r.count * static_cast<std::uint64_t>(cost.shared->ideal_wavefronts);
  }
  if (ideal != nullptr) *ideal = ideal_total;
  return total;
}

std::uint64_t required_gain(std::uint64_t before, double min_gain) {
  const double g = std::ceil(static_cast<double>(before) * std::max(0.0, min_gain));
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(g));
}

ArraySearch search_layouts(const model::Arch& arch, const emu::Region& region,
                           const std::vector<RecordedAccess>& accesses, const SearchLimits& limits) {
  ArraySearch s;
  s.elem_bytes = element_bytes(accesses);
  s.before = price_under(arch, region, accesses, layout::Identity{}, s.elem_bytes, &s.ideal).value_or(0);
  if (s.before <= s.ideal) return s;  // nothing to win
  const std::uint64_t gain = required_gain(s.before, limits.min_gain);
  std::vector<LayoutCandidate> ranked;
  for (const layout::Layout& l : candidate_layouts(region.size, s.elem_bytes, limits.hardware_only)) {
    ++s.candidates;
    auto w = price_under(arch, region, accesses, l, s.elem_bytes);
    if (!w || *w >= s.before) continue;
    const std::uint64_t extra = layout::footprint(l, region.size) - region.size;
    if (extra > limits.max_extra_bytes) {
      ++s.over_limit;
      continue;
    }
    if (s.before - *w < gain) {
      ++s.too_small;
      continue;
    }
    ranked.push_back(LayoutCandidate{l, *w, extra, arithmetic_cost(l)});
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const LayoutCandidate& a, const LayoutCandidate& b) {
    return std::tie(a.wavefronts, a.extra_bytes, a.arithmetic) < std::tie(b.wavefronts, b.extra_bytes, b.arithmetic);
  });
  // The best few, at most two of each kind, so a padding still shows beside many swizzles.
  std::vector<int> per_kind(std::variant_size_v<layout::Layout>, 0);
  for (LayoutCandidate& c : ranked)
    if (s.best.size() < limits.keep && per_kind[c.layout.index()]++ < 2) s.best.push_back(std::move(c));
  return s;
}

}  // namespace warpscope::analysis
