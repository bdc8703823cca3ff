// atomic_lowering.cc: an atomic's execution as the SASS instructions that run.
#include "analysis/atomic_lowering.h"

#include <algorithm>
#include <bit>

namespace warpscope::analysis {

namespace {

std::uint32_t highest_lane(std::uint32_t mask) { return mask == 0 ? 0 : 1u << (31 - std::countl_zero(mask)); }

bool is_cas_loop(const AtomicRole& role, model::Space space) {
  if (role.lowering == AtomicLowering::CasLoop || role.lowering == AtomicLowering::LeaderCasLoop) return true;
  return role.shared_fallback && space == model::Space::Shared;
}

// The rounds of a CAS loop on `words` (per-lane word addresses): round r's lanes.
std::vector<std::uint32_t> cas_rounds(const model::WarpAccess& words) {
  std::array<int, model::kWarpSize> rank{};
  int rounds = 0;
  for (int l = 0; l < model::kWarpSize; ++l) {
    if (!words.active(l)) continue;
    for (int k = 0; k < l; ++k)
      if (words.active(k) && words.address[static_cast<std::size_t>(k)] == words.address[static_cast<std::size_t>(l)])
        ++rank[static_cast<std::size_t>(l)];
    rounds = std::max(rounds, rank[static_cast<std::size_t>(l)] + 1);
  }
  std::vector<std::uint32_t> out(static_cast<std::size_t>(rounds), 0);
  for (int l = 0; l < model::kWarpSize; ++l)
    if (words.active(l))
      for (int r = 0; r <= rank[static_cast<std::size_t>(l)]; ++r) out[static_cast<std::size_t>(r)] |= 1u << l;
  return out;
}

}  // namespace

bool timing_dependent(const AtomicRole& role, model::Space space) { return role.retried || is_cas_loop(role, space); }

void lower_atomic(const emu::AccessEvent& e, const AtomicRole& role, std::vector<LoweredAccess>& out) {
  model::WarpAccess a = e.access;
  const model::Space space = model::space_of(a.op);
  const bool shared = space == model::Space::Shared;
  const bool leader = role.lowering == AtomicLowering::Leader || role.lowering == AtomicLowering::LeaderCasLoop ||
                      (role.lowering == AtomicLowering::LeaderWhenFull && a.mask == 0xffffffffu);
  if (leader) a.mask = highest_lane(a.mask);
  if (!is_cas_loop(role, space)) {
    if (shared) {
      if (role.lowering == AtomicLowering::PopcInc) a.op = model::MemOp::SharedAtomicAggregated;
      else if (role.from_sass) a.op = model::MemOp::SharedAtomic;  // else: the emulator's choice
    } else {
      a.op = role.global_op;
    }
    const bool cas = shared && e.instruction != nullptr && e.instruction->subop == ptx::SubOp::Cas;
    // A generic ATOM that succeeds on a shared address is an ordinary shared atomic (H200:
    // cooperative groups' ATOM.E.OR on shared, on the Source page like ATOMS).
    out.push_back({a, false, cas ? 2 : 1, role.generic && !shared});
    return;
  }
  // The word each lane compares and swaps, and the loop's rounds.
  const int bytes = role.cas_bytes == 8 ? 8 : 4;
  model::WarpAccess words = a;
  words.width = bytes;
  for (int l = 0; l < model::kWarpSize; ++l)
    words.address[static_cast<std::size_t>(l)] &= ~static_cast<std::uint64_t>(bytes - 1);
  // Lanes a min/max left unchanged leave ptxas's loop after its first load (the compare).
  model::WarpAccess trying = words;
  trying.mask &= ~e.unchanged;
  std::vector<std::uint32_t> rounds = cas_rounds(trying);
  model::WarpAccess load = words;
  load.op = shared ? model::MemOp::SharedLoad : model::MemOp::GlobalLoad;
  model::WarpAccess cas = words;
  // ATOMS.CAST does not serialize the lanes on one word (one wins, the others fail in the same
  // pass): it is priced by distinct words, like ATOMS.POPC.INC, twice for its two operands
  // (H200, corpus/sass atom_shared_forms: 2 wavefronts a round, ideal 2, with 4 lanes a word).
  cas.op = shared ? model::MemOp::SharedAtomicAggregated : model::MemOp::GlobalAtomic;
  if (shared) {  // LDS, then ATOMS.CAST, every round
    bool first = true;
    if (rounds.empty()) out.push_back({load, true});  // every lane's compare said done
    for (std::uint32_t m : rounds) {
      load.mask = first ? words.mask : m;
      cas.mask = m;
      out.push_back({load, true});
      // The generic ATOM's try before the loop counts on the first round's entry.
      out.push_back({cas, false, 2, role.generic && first});
      first = false;
    }
  } else {  // one LD before the loop, then ATOM.CAS every round
    out.push_back({load, true});
    for (std::uint32_t m : rounds) {
      cas.mask = m;
      out.push_back({cas, false, 1, role.generic});
    }
  }
}

}  // namespace warpscope::analysis
