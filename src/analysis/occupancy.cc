// occupancy.cc: the shared-memory and warp limits on resident blocks.
#include "analysis/occupancy.h"

#include <algorithm>

namespace warpscope::analysis {

Occupancy occupancy(const model::Arch& arch, std::uint64_t shared_bytes, std::uint64_t threads_per_block) {
  Occupancy o;
  const auto granule = static_cast<std::uint64_t>(std::max(1, arch.shared_alloc_granularity));
  o.shared_per_block = (shared_bytes + static_cast<std::uint64_t>(arch.shared_reserved_per_block) + granule - 1) /
                       granule * granule;
  const std::uint64_t warps = std::max<std::uint64_t>(1, (threads_per_block + model::kWarpSize - 1) / model::kWarpSize);
  const auto by_warps = static_cast<std::uint64_t>(arch.max_warps_per_sm) / warps;
  const auto by_blocks = static_cast<std::uint64_t>(arch.max_blocks_per_sm);
  const std::uint64_t by_shared = o.shared_per_block == 0 ? by_blocks
                                                          : static_cast<std::uint64_t>(arch.max_shared_per_sm) / o.shared_per_block;
  std::uint64_t blocks = std::min({by_warps, by_blocks, by_shared});
  o.limited_by = blocks == by_shared && by_shared < std::min(by_warps, by_blocks) ? "shared memory"
                 : blocks == by_warps                                            ? "warps"
                                                                                 : "blocks";
  o.blocks_per_sm = static_cast<int>(blocks);
  o.warps_per_sm = static_cast<int>(blocks * warps);
  return o;
}

}  // namespace warpscope::analysis
