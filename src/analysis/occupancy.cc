// occupancy.cc: the register, shared-memory, warp and block limits on resident blocks.
#include "analysis/occupancy.h"

#include <algorithm>
#include <climits>

namespace warpscope::analysis {

namespace {

std::uint64_t round_up(std::uint64_t v, std::uint64_t unit) { return unit == 0 ? v : (v + unit - 1) / unit * unit; }

}  // namespace

int blocks_by_registers(const model::Arch& arch, int registers_per_thread, std::uint64_t threads_per_block) {
  if (registers_per_thread <= 0) return INT_MAX;
  const std::uint64_t warps = std::max<std::uint64_t>(1, (threads_per_block + model::kWarpSize - 1) / model::kWarpSize);
  const std::uint64_t per_warp =
      round_up(static_cast<std::uint64_t>(registers_per_thread) * model::kWarpSize,
               static_cast<std::uint64_t>(std::max(1, arch.register_alloc_unit)));
  const auto parts = static_cast<std::uint64_t>(std::max(1, arch.register_sub_partitions));
  const auto per_block_limit = static_cast<std::uint64_t>(arch.registers_per_block);
  // The hardware checks a block as if its warps filled every sub-partition evenly.
  if (registers_per_thread > arch.max_registers_per_thread || per_warp * warps > per_block_limit ||
      per_warp * round_up(warps, parts) > per_block_limit)
    return 0;
  const std::uint64_t warps_per_part = static_cast<std::uint64_t>(arch.registers_per_sm) / parts / per_warp;
  return static_cast<int>(warps_per_part * parts / warps);
}

Occupancy occupancy(const model::Arch& arch, std::uint64_t shared_bytes, std::uint64_t threads_per_block,
                    int registers_per_thread) {
  Occupancy o;
  o.registers_per_thread = std::max(0, registers_per_thread);
  const auto granule = static_cast<std::uint64_t>(std::max(1, arch.shared_alloc_granularity));
  o.shared_per_block = round_up(shared_bytes + static_cast<std::uint64_t>(arch.shared_reserved_per_block), granule);
  const std::uint64_t warps = std::max<std::uint64_t>(1, (threads_per_block + model::kWarpSize - 1) / model::kWarpSize);
  o.by_warps = static_cast<int>(static_cast<std::uint64_t>(arch.max_warps_per_sm) / warps);
  o.by_blocks = arch.max_blocks_per_sm;
  o.by_shared = o.shared_per_block == 0
                    ? o.by_blocks
                    : static_cast<int>(static_cast<std::uint64_t>(arch.max_shared_per_sm) / o.shared_per_block);
  const int by_registers = blocks_by_registers(arch, o.registers_per_thread, threads_per_block);
  o.by_registers = o.registers_per_thread > 0 ? by_registers : -1;
  const int blocks = std::min({o.by_warps, o.by_blocks, o.by_shared, by_registers});
  for (const auto& [limit, name] : {std::pair{o.by_warps, "warps"}, std::pair{o.by_blocks, "blocks"},
                                    std::pair{o.by_registers, "registers"}, std::pair{o.by_shared, "shared memory"}})
    if (limit == blocks) o.limited_by += (o.limited_by.empty() ? "" : ", ") + std::string(name);
  o.blocks_per_sm = blocks;
  o.warps_per_sm = static_cast<int>(static_cast<std::uint64_t>(blocks) * warps);
  return o;
}

}  // namespace warpscope::analysis
