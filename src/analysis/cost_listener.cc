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
  auto priced = model::price(arch_, e.access);
  if (!priced) {  // the emulator reports misaligned accesses itself; never price them
    ++invalid_;
    return;
  }
  if (by_pc_.size() <= e.pc) by_pc_.resize(e.pc + 1);
  InstructionCost& c = by_pc_[e.pc];
  if (!c.used()) {
    c.instruction = e.instruction;
    c.op = e.access.op;
    c.width = e.access.width;
    c.async_copy = e.async_copy;
    c.region = e.region;
  }
  ++c.executions;
  c.thread_accesses += static_cast<std::uint64_t>(std::popcount(e.access.mask));
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
    c.worst_access = e.access;
    c.worst_cost = *priced;
    c.worst_block = e.block;
    c.worst_warp = e.warp;
  }
}

void CostListener::merge(const CostListener& other) {
  if (by_pc_.size() < other.by_pc_.size()) by_pc_.resize(other.by_pc_.size());
  for (std::size_t pc = 0; pc < other.by_pc_.size(); ++pc) by_pc_[pc].merge(other.by_pc_[pc]);
  invalid_ += other.invalid_;
}

}  // namespace warpscope::analysis
