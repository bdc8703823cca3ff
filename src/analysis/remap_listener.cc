// remap_listener.cc: moving shared addresses by a layout before pricing.
#include "analysis/remap_listener.h"

namespace warpscope::analysis {

int lane_bytes(const model::WarpAccess& access) { return model::is_matrix_rows(access.op) ? 16 : access.width; }

model::WarpAccess remap_access(const model::WarpAccess& access, const std::vector<RegionRemap>& remaps) {
  model::WarpAccess out = access;
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    if (!access.active(lane)) continue;
    const std::uint64_t a = access.address[static_cast<std::size_t>(lane)];
    for (const RegionRemap& r : remaps)
      if (a >= r.base && a - r.base < r.size) {
        out.address[static_cast<std::size_t>(lane)] = r.base + layout::apply(r.layout, a - r.base);
        break;
      }
  }
  return out;
}

bool keeps_lanes_whole(const model::WarpAccess& access, const RegionRemap& remap, std::uint64_t elem_bytes) {
  const auto bytes = static_cast<std::uint64_t>(lane_bytes(access));
  if (bytes <= elem_bytes) return true;
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    const std::uint64_t a = access.address[static_cast<std::size_t>(lane)];
    if (!access.active(lane) || a < remap.base || a - remap.base >= remap.size) continue;
    const std::uint64_t first = layout::apply(remap.layout, a - remap.base);
    for (std::uint64_t k = elem_bytes; k < bytes; k += elem_bytes)
      if (layout::apply(remap.layout, a - remap.base + k) != first + k) return false;
  }
  return true;
}

void RemapListener::on_access(const emu::AccessEvent& e) {
  if (remaps_.empty() || model::space_of(e.access.op) != model::Space::Shared) {
    cost_->on_access(e);
    return;
  }
  emu::AccessEvent moved = e;
  moved.access = remap_access(e.access, remaps_);
  cost_->on_access(moved);
}

}  // namespace warpscope::analysis
