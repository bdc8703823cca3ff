// remap_listener.h: prices a run as if chosen shared arrays had other layouts: each access's
// addresses inside a remapped array are moved (offset - base -> layout -> + base) before a
// CostListener sees them. The emulator itself is untouched: values still go where the PTX
// put them; only the costs are those of the new layout. This is the proof of a fix: the
// whole kernel runs again, and its figures come from that run.
//
//   tile at 0, 4096 B, Swizzle<5,2,5>:   lds lane 1 at 128 -> 132,  lane 2 at 256 -> 264, ...
#pragma once

#include <memory>
#include <vector>

#include "analysis/cost_listener.h"
#include "layout/layout.h"

namespace warpscope::analysis {

struct RegionRemap {
  std::uint64_t base = 0;  // shared offset of the array
  std::uint64_t size = 0;  // bytes as declared
  layout::Layout layout;
};

// Bytes one active lane touches: the access width, or a 16-byte row for ldmatrix.
int lane_bytes(const model::WarpAccess& access);

// The access with each lane inside one of the arrays moved by that array's layout. Lanes
// are matched against the original addresses, so a padded array's moved lanes are never
// moved again by the array after it.
model::WarpAccess remap_access(const model::WarpAccess& access, const std::vector<RegionRemap>& remaps);

// True when every lane's bytes inside the array stay contiguous under the layout (a layout
// of 4-byte elements cannot serve an 8-byte access that straddles two of its elements).
bool keeps_lanes_whole(const model::WarpAccess& access, const RegionRemap& remap, std::uint64_t elem_bytes);

class RemapListener final : public emu::Listener {
 public:
  RemapListener(std::unique_ptr<CostListener> cost, std::vector<RegionRemap> remaps)
      : cost_(std::move(cost)), remaps_(std::move(remaps)) {}

  void on_block_begin(const emu::BlockEvent& e) override { cost_->on_block_begin(e); }
  void on_access(const emu::AccessEvent& e) override;
  void on_barrier(const emu::BarrierEvent& e) override { cost_->on_barrier(e); }
  void on_divergence(const emu::DivergenceEvent& e) override { cost_->on_divergence(e); }
  void on_bulk_copy(const emu::BulkCopyEvent& e) override { cost_->on_bulk_copy(e); }
  void on_block_end(const emu::BlockEvent& e) override { cost_->on_block_end(e); }

  // The priced run, for build_kernel_report (which reads CostListeners).
  std::unique_ptr<CostListener> take_cost() { return std::move(cost_); }

 private:
  std::unique_ptr<CostListener> cost_;
  std::vector<RegionRemap> remaps_;
};

}  // namespace warpscope::analysis
