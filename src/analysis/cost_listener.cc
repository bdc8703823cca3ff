// cost_listener.cc: accumulating the model's prices per instruction.
#include "analysis/cost_listener.h"

#include <algorithm>
#include <bit>

namespace warpscope::analysis {

void InstructionCost::merge(const InstructionCost& o) {
  if (!o.used()) return;
  if (!used()) {
    *this = o;
    return;
  }
  executions += o.executions;
  thread_accesses += o.thread_accesses;
  wavefronts += o.wavefronts;
  ideal_wavefronts += o.ideal_wavefronts;
  requests += o.requests;
  sectors += o.sectors;
  ideal_sectors += o.ideal_sectors;
  bytes_requested += o.bytes_requested;
  if (worse_than_worst(o.worst_excess, o.worst_block_index, o.worst_warp)) {
    worst_excess = o.worst_excess;
    worst_block_index = o.worst_block_index;
    worst_access = o.worst_access;
    worst_cost = o.worst_cost;
    worst_block = o.worst_block;
    worst_warp = o.worst_warp;
  }
}

void CostListener::on_access(const emu::AccessEvent& e) {
  if (e.access.mask == 0) return;
  if (plan_ != nullptr && !e.async_copy)
    if (const FusionRole* role = plan_->role(e.instruction)) {
      add_part(e, *role);
      return;
    }
  record(e, e.access);
}

void CostListener::add_part(const emu::AccessEvent& e, const FusionRole& role) {
  Pending& p = pending_[e.block_index << 6 | static_cast<std::uint64_t>(e.warp)];
  if (p.group != role.group || ((p.seen >> role.index) & 1u)) {  // another group, or a new round
    flush(p);
    p.group = role.group;
  }
  p.parts[static_cast<std::size_t>(role.index)] = e;
  p.seen |= 1u << role.index;
  if (++p.have < role.size) return;
  // All parts are in: merge when every lane's parts are contiguous and the whole is aligned.
  const emu::AccessEvent& head = p.parts[0];
  model::WarpAccess merged = head.access;
  merged.width = role.width;
  const auto part_width = static_cast<std::uint64_t>(head.access.width);
  bool ok = true;
  for (int k = 1; k < role.size && ok; ++k) ok = p.parts[static_cast<std::size_t>(k)].access.mask == merged.mask;
  for (int lane = 0; lane < model::kWarpSize && ok; ++lane) {
    if (!merged.active(lane)) continue;
    ok = merged.address[lane] % static_cast<std::uint64_t>(role.width) == 0;
    for (int k = 1; k < role.size && ok; ++k)
      ok = p.parts[static_cast<std::size_t>(k)].access.address[lane] ==
           merged.address[lane] + static_cast<std::uint64_t>(k) * part_width;
  }
  if (!ok) {
    flush(p);
    return;
  }
  ++fused_;
  emu::AccessEvent at = p.parts[static_cast<std::size_t>(role.anchor)];
  record(at, merged);
  p = Pending{};
}

void CostListener::flush(Pending& p) {
  for (int k = 0; k < 4; ++k)
    if ((p.seen >> k) & 1u) record(p.parts[static_cast<std::size_t>(k)], p.parts[static_cast<std::size_t>(k)].access);
  p = Pending{};
}

void CostListener::on_block_end(const emu::BlockEvent&) {
  for (auto& [warp, p] : pending_) flush(p);
  pending_.clear();
}

void CostListener::record(const emu::AccessEvent& e, const model::WarpAccess& access) {
  // A cp.async's shared write has the pc of its global read: it keeps a slot of its own.
  const bool ldgsts_write = e.async_copy && model::space_of(access.op) == model::Space::Shared;
  std::vector<InstructionCost>& slots = ldgsts_write ? ldgsts_by_pc_ : by_pc_;
  std::vector<model::PriceCache>& caches = ldgsts_write ? ldgsts_caches_ : caches_;
  if (slots.size() <= e.pc) {
    slots.resize(e.pc + 1);
    caches.resize(e.pc + 1);
  }
  model::PriceCache& cache = caches[e.pc];
  const std::uint64_t misses = cache.misses();
  const model::AccessCost* priced = &cache.price(arch_, access);
  if (cache.misses() != misses && !model::validate(access).ok()) {
    ++invalid_;  // the emulator reports misaligned accesses itself; never count them
    cache = model::PriceCache{};
    return;
  }
  InstructionCost& c = slots[e.pc];
  if (!c.used()) {
    c.instruction = e.instruction;
    c.op = access.op;
    c.width = access.width;
    c.async_copy = e.async_copy;
    c.region = e.region;
  }
  ++c.executions;
  c.thread_accesses += static_cast<std::uint64_t>(std::popcount(access.mask));
  std::int64_t excess = 0;
  if (priced->shared) {
    const model::SharedCost& s = *priced->shared;
    c.wavefronts += static_cast<std::uint64_t>(s.wavefronts);
    c.ideal_wavefronts += static_cast<std::uint64_t>(s.ideal_wavefronts);
    excess = s.bank_conflicts();
  } else if (priced->global) {
    const model::GlobalCost& g = *priced->global;
    c.requests += static_cast<std::uint64_t>(g.requests);
    c.sectors += static_cast<std::uint64_t>(g.sectors);
    c.ideal_sectors += static_cast<std::uint64_t>(g.ideal_sectors);
    c.bytes_requested += g.bytes_requested;
    excess = g.excess_sectors();
  }
  if (c.executions == 1 || c.worse_than_worst(excess, e.block_index, e.warp)) {
    c.worst_excess = excess;
    c.worst_block_index = e.block_index;
    c.worst_access = access;
    c.worst_cost = *priced;
    c.worst_block = e.block;
    c.worst_warp = e.warp;
  }
}

void BulkCost::merge(const BulkCost& o) {
  if (!o.used()) return;
  if (!used() || o.first_block_index < first_block_index ||
      (o.first_block_index == first_block_index && o.first_warp < first_warp)) {
    BulkCost mine = *this;
    *this = o;
    if (!mine.used()) return;
    issues += mine.issues;
    warp_issues += mine.warp_issues;
    bytes += mine.bytes;
    global_bytes += mine.global_bytes;
    global_sectors += mine.global_sectors;
    ideal_sectors += mine.ideal_sectors;
    return;
  }
  issues += o.issues;
  warp_issues += o.warp_issues;
  bytes += o.bytes;
  global_bytes += o.global_bytes;
  global_sectors += o.global_sectors;
  ideal_sectors += o.ideal_sectors;
}

void CostListener::on_bulk_copy(const emu::BulkCopyEvent& e) {
  if (bulk_by_pc_.size() <= e.pc) bulk_by_pc_.resize(e.pc + 1);
  BulkCost& c = bulk_by_pc_[e.pc];
  if (!c.used()) {
    c.instruction = e.instruction;
    c.kind = e.kind;
    c.tensor = e.tensor;
    c.first_block = e.block;
    c.first_block_index = e.block_index;
    c.first_warp = e.warp;
    c.shared = e.shared;
    c.row_bytes = e.row_bytes;
    c.swizzle_bytes = e.swizzle_bytes;
    if (e.footprint != nullptr) c.footprint = *e.footprint;
  }
  ++c.issues;
  c.warp_issues += e.first_of_warp ? 1u : 0u;
  c.bytes += e.bytes;
  c.global_bytes += e.global_bytes;
  c.global_sectors += e.global_sectors;
  c.ideal_sectors += e.ideal_sectors;
}

void CostListener::merge(const CostListener& other) {
  if (by_pc_.size() < other.by_pc_.size()) by_pc_.resize(other.by_pc_.size());
  for (std::size_t pc = 0; pc < other.by_pc_.size(); ++pc) by_pc_[pc].merge(other.by_pc_[pc]);
  if (ldgsts_by_pc_.size() < other.ldgsts_by_pc_.size()) ldgsts_by_pc_.resize(other.ldgsts_by_pc_.size());
  for (std::size_t pc = 0; pc < other.ldgsts_by_pc_.size(); ++pc) ldgsts_by_pc_[pc].merge(other.ldgsts_by_pc_[pc]);
  if (bulk_by_pc_.size() < other.bulk_by_pc_.size()) bulk_by_pc_.resize(other.bulk_by_pc_.size());
  for (std::size_t pc = 0; pc < other.bulk_by_pc_.size(); ++pc) bulk_by_pc_[pc].merge(other.bulk_by_pc_[pc]);
  invalid_ += other.invalid_;
  fused_ += other.fused_;
}

}  // namespace warpscope::analysis
