// cost_listener.cc: accumulating the model's prices per instruction.
#include "analysis/cost_listener.h"

#include <algorithm>
#include <bit>
#include <optional>
#include <vector>

#include "analysis/sass_match.h"

namespace warpscope::analysis {

namespace {

// The Source page's "L1 Wavefronts Shared Ideal" of a load or store served in several lane
// groups packs the active lanes into full groups, where the kernel's bank-conflict counter
// takes one ideal wavefront per group with active lanes (model::SharedCost): an STS.64 of the
// even lanes (two half-warps, 8 lanes each) is 2 wavefronts, ideal 1 on the Source page, no
// conflict for the counter (H200, batch 3: rw_pred_swap_shared's STS.64 1664 wavefronts, Source
// ideal 1536, counter 0 conflicts; the bitonic sorts' predicated LDS.64/STS.64 likewise).
//
// An LDS.128 whose lanes pair up (model::SharedCost's doubled group_lanes: a paired group is two
// quarter-warps) and still conflicts has the quarter-warps' ideal on the Source page: one per
// quarter with active lanes (H200, corpus/triton triton_matmul_fma_128x16: four-lane broadcasts,
// 8 addresses 256 bytes apart, 8 wavefronts: Source ideal 4, the counter's 2); without a
// conflict, the paired groups' (triton_matmul_fma, _16x64: 2), and so for a paired LDS.64 that
// conflicts (rw_bitonic_shared_kv, rw_pred_swap_shared_mixed: the packed count above).
std::uint64_t textbook_groups(const model::WarpAccess& a, int textbook) {
  std::uint64_t groups = 0;
  for (int g = 0; g < model::kWarpSize; g += textbook)
    groups += ((a.mask >> g) & ((textbook == 32 ? 0xffffffffu : (1u << textbook) - 1u))) != 0 ? 1 : 0;
  return groups;
}

std::uint64_t source_ideal_wavefronts(const model::Arch& arch, const model::WarpAccess& a, const model::SharedCost& s) {
  if ((a.op != model::MemOp::SharedLoad && a.op != model::MemOp::SharedStore) || s.group_lanes <= 0)
    return static_cast<std::uint64_t>(s.ideal_wavefronts);
  if (a.op == model::MemOp::SharedLoad) {
    const int textbook = arch.load_group_lanes[static_cast<std::size_t>(model::width_index(a.width))];
    if (a.width == 16 && textbook > 0 && s.group_lanes == 2 * textbook && s.wavefronts > s.ideal_wavefronts)
      return textbook_groups(a, textbook);
  }
  if (s.groups <= 1) return static_cast<std::uint64_t>(s.ideal_wavefronts);
  const int packed = (std::popcount(a.mask) + s.group_lanes - 1) / s.group_lanes;
  return static_cast<std::uint64_t>(std::min(s.ideal_wavefronts, packed));
}

bool writes(model::MemOp op) {
  return op != model::MemOp::SharedLoad && op != model::MemOp::LdMatrix && op != model::MemOp::GlobalLoad &&
         op != model::MemOp::Gmma;
}

}  // namespace

void InstructionCost::merge(const InstructionCost& o) {
  if (!o.used()) return;
  if (!used()) {
    *this = o;
    return;
  }
  executions += o.executions;
  thread_accesses += o.thread_accesses;
  warp_instructions += o.warp_instructions;
  wavefronts += o.wavefronts;
  ideal_wavefronts += o.ideal_wavefronts;
  source_ideal_wavefronts += o.source_ideal_wavefronts;
  requests += o.requests;
  sectors += o.sectors;
  ideal_sectors += o.ideal_sectors;
  bytes_requested += o.bytes_requested;
  l1_sectors += o.l1_sectors;
  generic_wavefronts += o.generic_wavefronts;
  source_sectors_extra += o.source_sectors_extra;
  timing_dependent = timing_dependent || o.timing_dependent;
  if (worse_than_worst(o.worst_excess, o.worst_block_index, o.worst_warp)) {
    worst_excess = o.worst_excess;
    worst_block_index = o.worst_block_index;
    worst_access = o.worst_access;
    worst_cost = o.worst_cost;
    worst_block = o.worst_block;
    worst_warp = o.worst_warp;
  }
}

const InstructionPlan* CostListener::role_of(const emu::AccessEvent& e) {
  if (roles_.size() <= e.pc) {
    roles_.resize(e.pc + 1, nullptr);
    role_known_.resize(e.pc + 1, false);
  }
  if (!role_known_[e.pc]) {
    role_known_[e.pc] = true;
    const InstructionPlan* r = plan_ ? plan_->role(e.instruction) : nullptr;
    const ptx::Instruction& inst = *e.instruction;
    if (r == nullptr && (inst.opcode == ptx::Opcode::Atom || inst.opcode == ptx::Opcode::Red)) {
      auto p = std::make_unique<InstructionPlan>();
      p->has_atomic = true;
      p->atomic = detail::predicted_atomic(inst);
      r = p.get();
      predicted_.push_back(std::move(p));
    } else if (r == nullptr && inst.opcode == ptx::Opcode::TensormapReplace) {
      predicted_.push_back(std::make_unique<InstructionPlan>(predicted_map_words(inst)));
      r = predicted_.back().get();
    }
    roles_[e.pc] = r;
  }
  return roles_[e.pc];
}

void CostListener::on_access(const emu::AccessEvent& e) {
  if (e.access.mask == 0) return;
  if (plan_ != nullptr && plan_->reuse_groups > 0 && writes(e.access.op)) reuse_.store(e);
  if (plan_ != nullptr && plan_->sunk_loads > 0) {
    // A load ptxas moved past an early exit: it runs with its store (sunk_loads.h).
    const InstructionPlan* r = e.async_copy ? nullptr : role_of(e);
    if (r != nullptr && r->sunk_into != nullptr) {  // several may wait together
      sunk_.hold(e, r->sunk_into, r->sunk_until);
      return;
    }
    sunk_.touch(e);
  }
  if (plan_ != nullptr && !plan_->unrolled_loops.empty()) {
    // A loop ptxas unrolled into regions: the warp's accesses run when it leaves the loop.
    const InstructionPlan* r = e.async_copy ? nullptr : role_of(e);
    if (r != nullptr && r->unrolled >= 0 && !r->polls) {
      regroup_.add(e, r->unrolled, plan_->unrolled_loops[static_cast<std::size_t>(r->unrolled)]);
      return;
    }
    regroup_.touch(e);
  }
  if (e.instruction->opcode == ptx::Opcode::TensormapCpFenceproxy) {
    // The copy's LDS (the companion) and its ATOMG.EXCH (emu/exec_tensormap.cc).
    const bool shared = model::space_of(e.access.op) == model::Space::Shared;
    record(e, e.access, shared ? InstructionSlot::Companion : InstructionSlot::Own, {});
    return;
  }
  const InstructionPlan* role = e.async_copy ? nullptr : role_of(e);
  if (role == nullptr) {
    record(e, e.access, InstructionSlot::Own, {});
    return;
  }
  if (role->has_atomic) {
    lowered_.clear();
    lower_atomic(e, role->atomic, lowered_);
    const bool timing = timing_dependent(role->atomic, model::space_of(e.access.op));
    for (const LoweredAccess& a : lowered_)
      if (a.access.mask != 0)
        record(e, a.access, a.companion ? InstructionSlot::Companion : InstructionSlot::Own,
               {timing, a.operands, a.generic});
    return;
  }
  const Counting polled{role->polls, 1, false};
  switch (role->action) {
    case InstructionPlan::Action::AsIs:
      if (role->reuse_group >= 0 && reuse_.reused(e, role->reuse_group, role->reuse_slots, role->reuse_subset)) return;
      record(e, e.access, InstructionSlot::Own, polled);
      return;
    case InstructionPlan::Action::Drop: return;
    case InstructionPlan::Action::Words: {
      // A tensormap.replace: the map's words as ptxas reads and writes them, stores in the
      // instruction's own slot, loads in its companion.
      const bool shared = model::space_of(e.access.op) == model::Space::Shared;
      for (const WordAccess& w : role->words) {
        emu::AccessEvent word = e;
        word.access.op = shared ? (w.store ? model::MemOp::SharedStore : model::MemOp::SharedLoad)
                                : (w.store ? model::MemOp::GlobalStore : model::MemOp::GlobalLoad);
        word.access.width = w.width;
        for (auto& a : word.access.address) a += static_cast<std::uint64_t>(w.offset);
        record(word, word.access, w.store ? InstructionSlot::Own : InstructionSlot::Companion, {});
      }
      return;
    }
    case InstructionPlan::Action::Merge: merges_.add(e, role->merge); return;
    case InstructionPlan::Action::Reshape:
      for (const Piece& p : role->pieces) {
        if (p.offset < 0 || p.offset + p.width > e.access.width) continue;
        emu::AccessEvent piece = e;
        piece.access.width = p.width;
        for (auto& a : piece.access.address) a += static_cast<std::uint64_t>(p.offset);
        if (p.merged) merges_.add(piece, p.merge);
        else record(piece, piece.access, InstructionSlot::Own, polled);
      }
      return;
  }
}

void CostListener::run(const emu::AccessEvent& at, const model::WarpAccess& access) {
  record(at, access, InstructionSlot::Own, {});
}

void CostListener::on_barrier(const emu::BarrierEvent& e) {
  regroup_.end_round(e.block_index, e.warp);
  sunk_.end_round(e.block_index, e.warp);
  merges_.end_round(e.block_index, e.warp);
  reuse_.end_round(e.block_index, e.warp);
}

void CostListener::on_block_end(const emu::BlockEvent& e) {
  regroup_.end_block(e.block_index);
  sunk_.end_block(e.block_index);
  merges_.end_block(e.block_index);
  reuse_.end_block(e.block_index);
}

void CostListener::record(const emu::AccessEvent& e, const model::WarpAccess& access, InstructionSlot slot_kind,
                          Counting how) {
  // A cp.async's shared write has the pc of its global read: it keeps a slot of its own.
  const bool ldgsts_write = e.async_copy && model::space_of(access.op) == model::Space::Shared;
  std::vector<InstructionCost>& slots = ldgsts_write ? ldgsts_by_pc_ : by_slot_;
  std::vector<model::PriceCache>& caches = ldgsts_write ? ldgsts_caches_ : caches_;
  const std::size_t slot = ldgsts_write ? e.pc : slot_of(e.pc, slot_kind);
  if (slots.size() <= slot) {
    slots.resize(slot + 2);
    caches.resize(slot + 2);
  }
  model::PriceCache& cache = caches[slot];
  const std::uint64_t misses = cache.misses();
  const model::AccessCost* priced = &cache.price(arch_, access);
  if (cache.misses() != misses && !model::validate(access).ok()) {
    ++invalid_;  // the emulator reports misaligned accesses itself; never count them
    cache = model::PriceCache{};
    return;
  }
  InstructionCost& c = slots[slot];
  if (!c.used()) {
    c.instruction = e.instruction;
    c.op = access.op;
    c.width = access.width;
    c.async_copy = e.async_copy;
    c.companion = slot_kind == InstructionSlot::Companion;
    c.region = e.region;
  }
  c.timing_dependent = c.timing_dependent || how.timing;
  ++c.executions;
  c.thread_accesses += static_cast<std::uint64_t>(std::popcount(access.mask));
  std::int64_t excess = 0;
  model::AccessCost ldgsts_cost;
  // The worst warp of a cp.async's shared write is still the one whose store pattern
  // conflicts most (its bank and degree are what the reports show).
  std::optional<std::int64_t> store_excess;
  if (e.ldgsts != nullptr) {
    // cp.async: priced as the whole copy (model/ldgsts_cost.h), not as its halves alone.
    // The source predicate as the Source page sees it (sass_plan.h, copy_predicates).
    const model::LdgstsCost l = [&] {
      if (plan_ == nullptr) return model::price_ldgsts(*e.ldgsts);
      const auto seen = plan_->copy_predicates.find(e.instruction);
      if (seen == plan_->copy_predicates.end()) return model::price_ldgsts(*e.ldgsts);
      model::LdgstsAccess copy = *e.ldgsts;
      copy.seen = seen->second;
      return model::price_ldgsts(copy);
    }();
    if (priced->shared) {
      store_excess = priced->shared->bank_conflicts();
      ldgsts_cost = *priced;
      ldgsts_cost.shared->wavefronts = l.wavefronts;
      ldgsts_cost.shared->ideal_wavefronts = l.ideal_wavefronts;
      priced = &ldgsts_cost;
    } else if (priced->global) {
      c.source_sectors_extra += static_cast<std::int64_t>(l.sectors) - priced->global->sectors;
    }
  }
  if (priced->shared) {
    const model::SharedCost& s = *priced->shared;
    c.wavefronts += static_cast<std::uint64_t>(s.wavefronts * how.operands);
    c.ideal_wavefronts += static_cast<std::uint64_t>(s.ideal_wavefronts * how.operands);
    // A cp.async's ideal is its own rule's (ldgsts_cost.h), not a packed store's.
    c.source_ideal_wavefronts += (e.ldgsts != nullptr ? static_cast<std::uint64_t>(s.ideal_wavefronts)
                                                       : source_ideal_wavefronts(arch_, access, s)) *
                                 static_cast<std::uint64_t>(how.operands);
    excess = store_excess.value_or(static_cast<std::int64_t>(s.bank_conflicts())) * how.operands;
    if (how.generic) ++c.generic_wavefronts;  // the generic ATOM's try on a shared address
  } else if (priced->global) {
    const model::GlobalCost& g = *priced->global;
    c.requests += static_cast<std::uint64_t>(g.requests);
    c.sectors += static_cast<std::uint64_t>(g.sectors);
    c.ideal_sectors += static_cast<std::uint64_t>(g.ideal_sectors);
    c.bytes_requested += g.bytes_requested;
    const bool atomic = access.op == model::MemOp::GlobalAtomic || access.op == model::MemOp::GlobalReduction;
    if (atomic) {
      const model::AtomicPasses p = model::atomic_passes(arch_, access);
      c.l1_sectors += static_cast<std::uint64_t>(p.sectors);
      if (how.generic) c.generic_wavefronts += static_cast<std::uint64_t>(p.passes);
    } else {
      c.l1_sectors += static_cast<std::uint64_t>(g.sectors);
    }
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
    c.predicated = plan_ != nullptr && plan_->predicated_tma_loads.count(e.instruction) != 0;
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
  // A multicast load's sectors reach every destination block's SM: ncu's xbar2l1tex counters
  // count each delivery (H200, corpus/hopper cluster_dsmem: a 1024-byte box to 2 blocks, 64
  // sectors read).
  const std::uint64_t copies = e.kind == emu::BulkCopyEvent::Kind::Load && e.destinations > 1
                                   ? static_cast<std::uint64_t>(e.destinations) : 1;
  c.global_bytes += e.global_bytes * copies;
  c.global_sectors += e.global_sectors * copies;
  c.ideal_sectors += e.ideal_sectors * copies;
}

void CostListener::merge(const CostListener& other) {
  if (by_slot_.size() < other.by_slot_.size()) by_slot_.resize(other.by_slot_.size());
  for (std::size_t s = 0; s < other.by_slot_.size(); ++s) by_slot_[s].merge(other.by_slot_[s]);
  if (ldgsts_by_pc_.size() < other.ldgsts_by_pc_.size()) ldgsts_by_pc_.resize(other.ldgsts_by_pc_.size());
  for (std::size_t pc = 0; pc < other.ldgsts_by_pc_.size(); ++pc) ldgsts_by_pc_[pc].merge(other.ldgsts_by_pc_[pc]);
  if (bulk_by_pc_.size() < other.bulk_by_pc_.size()) bulk_by_pc_.resize(other.bulk_by_pc_.size());
  for (std::size_t pc = 0; pc < other.bulk_by_pc_.size(); ++pc) bulk_by_pc_[pc].merge(other.bulk_by_pc_[pc]);
  invalid_ += other.invalid_;
  merged_from_others_ += other.fused_accesses();
}

}  // namespace warpscope::analysis
