// sass_atomics.cc: how ptxas lowered each PTX atom/red, read from the SASS around it.
//
//   atomicAdd(&s[t % 7], 1)          ATOMS.POPC.INC.32 RZ, [R18+URZ]            PopcInc
//   atomicAdd(&f_shared[i], 1.0f)    LDS R6, [R4]; FADD; ATOMS.CAST.SPIN ...;   CasLoop
//                                    @!P0 BRA back
//   atomicMax(&s[1], t) (unused)     VOTEU.ANY UR5; REDUX.MAX UR4, R2;          Leader
//                                    FLO.U32 R12, UR5; ISETP.EQ P0, R12, lane;
//                                    @P0 ATOMS.MAX RZ, [R11+0x4], R14
//   r += atomicAdd(&s[25], t)        VOTE.ANY R6; ISETP.EQ P1, R6, -0x1 (full);  LeaderWhenFull
//                                    @!P1 ATOMS.ADD R9, ...; (scan) @P1' ATOMS.ADD (lane 31)
//   atomicAdd(&g[i], 1.0f) (unused)  REDG.E.ADD.F32...                          Native, op_red
//   atomicAdd(&h2[i], x) (generic)   ATOM.E.ADD.F16x2 P0, RZ ...; QSPC; LDS +    Native, op_atom,
//                                    ATOMS.CAST.SPIN loop for a shared address   shared fallback
#include <algorithm>
#include <map>
#include <set>

#include "analysis/sass_match.h"

namespace warpscope::analysis::detail {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> split_operands(std::string_view ops) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (ops[i] == '[') ++depth;
    if (ops[i] == ']') --depth;
    if (ops[i] == ',' && depth == 0) {
      out.push_back(trim(ops.substr(start, i - start)));
      start = i + 1;
    }
  }
  out.push_back(trim(ops.substr(start)));
  return out;
}

// "R12.reuse" -> "R12"; "-R7" -> "R7"; anything else unchanged.
std::string_view reg_name(std::string_view t) {
  while (!t.empty() && (t.front() == '-' || t.front() == '!' || t.front() == '|')) t.remove_prefix(1);
  return t.substr(0, t.find('.'));
}

bool is_gpr(std::string_view t) { return t.size() >= 2 && (t[0] == 'R' || (t[0] == 'U' && t[1] == 'R')) && t != "RZ" && t != "URZ"; }
bool is_pred(std::string_view t) { return t.size() == 2 && t[0] == 'P' && t[1] >= '0' && t[1] <= '6'; }

enum class GuardClass : std::uint8_t { None, Leader, NotFull };

// Per instruction: whether only an elected lane runs it, or only a warp with inactive lanes.
std::vector<GuardClass> guard_classes(const sass::SassFunction& f) {
  std::map<std::string, char, std::less<>> facts;  // register -> 'L' lane id, 'F' leading lane, 'V' vote mask
  std::map<int, char> preds;                       // P -> 'L' "this lane is the leader", 'F' "the warp is full"
  std::vector<GuardClass> out(f.instructions.size(), GuardClass::None);
  std::vector<std::pair<int, int>> leader_ranges;
  for (std::size_t i = 0; i < f.instructions.size(); ++i) {
    const sass::SassInstruction& inst = f.instructions[i];
    const auto ops = split_operands(inst.operands);
    if (inst.guard.present() && !inst.guard.uniform) {
      auto p = preds.find(inst.guard.pred);
      const char fact = p == preds.end() ? 0 : p->second;
      if (fact == 'L' && !inst.guard.negated) out[i] = GuardClass::Leader;
      if (fact == 'F' && inst.guard.negated) out[i] = GuardClass::NotFull;
      // @!P_leader BRA past the leader's code: what it skips runs in the leader only.
      if (fact == 'L' && inst.guard.negated && inst.opcode == "BRA" && inst.branch_target > static_cast<int>(i))
        leader_ranges.push_back({static_cast<int>(i) + 1, inst.branch_target});
    }
    if (ops.empty() || ops[0].empty()) continue;
    const std::string_view dst = reg_name(ops[0]);
    if (is_pred(dst)) {
      char fact = 0;
      if (inst.opcode == "ISETP" && ops.size() >= 4 &&
          std::find(inst.modifiers.begin(), inst.modifiers.end(), "EQ") != inst.modifiers.end()) {
        const std::string_view a = reg_name(ops[2]), b = reg_name(ops[3]), b_raw = ops[3];
        auto fa = facts.find(a), fb = facts.find(b);
        const char ka = fa == facts.end() ? 0 : fa->second, kb = fb == facts.end() ? 0 : fb->second;
        const bool b_imm = !b_raw.empty() && (b_raw[0] == '0' || b_raw[0] == '-');
        // lane == FLO(vote) or lane == a constant lane: the leader; vote == all lanes: full.
        if ((ka == 'L' && (kb == 'F' || (b_imm && b_raw != "-0x1"))) || (kb == 'L' && ka == 'F')) fact = 'L';
        if (ka == 'V' && b_raw == "-0x1") fact = 'F';
      }
      if (fact) preds[dst[1] - '0'] = fact;
      else preds.erase(dst[1] - '0');
      continue;
    }
    if (!is_gpr(dst)) continue;
    char fact = 0;
    if (inst.opcode == "S2R" && ops.size() >= 2 && ops[1] == "SR_LANEID") fact = 'L';
    if (inst.opcode == "FLO" || inst.opcode == "UFLO") fact = 'F';
    if ((inst.opcode == "VOTE" || inst.opcode == "VOTEU") &&
        std::find(inst.modifiers.begin(), inst.modifiers.end(), "ANY") != inst.modifiers.end())
      fact = 'V';
    if ((inst.opcode == "MOV" || inst.opcode == "IMAD") && ops.size() >= 2) {  // copies keep the fact
      auto it = facts.find(reg_name(ops.back()));
      if (it != facts.end() && (inst.opcode == "MOV" || inst.modifiers == std::vector<std::string>{"U32"} ||
                                inst.modifiers == std::vector<std::string>{"MOV", "U32"}))
        fact = it->second;
    }
    if (fact) facts[std::string(dst)] = fact;
    else if (auto it = facts.find(dst); it != facts.end()) facts.erase(it);
  }
  for (const auto& [from, to] : leader_ranges)
    for (int k = from; k < to && k < static_cast<int>(out.size()); ++k)
      if (out[static_cast<std::size_t>(k)] == GuardClass::None) out[static_cast<std::size_t>(k)] = GuardClass::Leader;
  return out;
}

bool sixteen_bit(const ptx::Instruction& inst) { return ptx::type_bits(inst.type) == 16; }

bool float_add(const ptx::Instruction& inst) {
  return inst.subop == ptx::SubOp::Add && ptx::is_float(inst.type);
}

}  // namespace

std::vector<bool> leader_only(const sass::SassFunction& f) {
  std::vector<bool> out;
  for (GuardClass g : guard_classes(f)) out.push_back(g == GuardClass::Leader);
  return out;
}

AtomicRole predicted_atomic(const ptx::Instruction& inst) {
  AtomicRole r;
  const bool unused = inst.opcode == ptx::Opcode::Red || inst.has(ptx::flag::ResultUnused);
  const bool no_red_form = inst.subop == ptx::SubOp::Exch || inst.subop == ptx::SubOp::Cas;
  // A generic atom is an ATOM (no RED form); a global one with an unused result a RED.
  r.global_op = unused && !no_red_form && inst.space == ptx::Space::Global ? model::MemOp::GlobalReduction
                                                                           : model::MemOp::GlobalAtomic;
  const bool wide = ptx::type_bits(inst.type) == 64 && inst.vec == 1;
  if (sixteen_bit(inst) && !(inst.subop == ptx::SubOp::Add && inst.type == ptx::Type::F16x2)) {
    r.lowering = AtomicLowering::CasLoop;  // no 16-bit atomics: a 32-bit CAS on the word
    r.cas_bytes = 4;
    return r;
  }
  if (inst.space == ptx::Space::Shared) {
    const bool cas_or_exch = no_red_form;
    const bool int32_native = !ptx::is_float(inst.type) && !wide && inst.type != ptx::Type::F16x2 &&
                              inst.type != ptx::Type::BF16x2;
    if (!cas_or_exch && (float_add(inst) || wide || !int32_native)) {
      r.lowering = AtomicLowering::CasLoop;  // ATOMS has no float or 64-bit arithmetic
      r.cas_bytes = wide || inst.type == ptx::Type::F64 ? 8 : 4;
    }
    return r;
  }
  if (inst.space == ptx::Space::None && float_add(inst)) r.shared_fallback = true;  // ATOM, then QSPC
  r.generic = inst.space == ptx::Space::None;
  return r;
}

void match_atomics(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                   const sass::SassFunction& sass, std::vector<bool>& taken, SassPlan& plan) {
  taken.resize(sass.memory_ops.size(), false);
  const std::vector<GuardClass> guards = guard_classes(sass);
  // SASS atomics by line, listing order; clusters of one PTX atomic's instructions.
  std::map<LineKey, std::vector<std::vector<int>>> clusters;
  for (std::size_t i = 0; i < sass.memory_ops.size(); ++i) {
    const sass::SassMemoryOp& op = sass.memory_ops[i];
    if (!sass::is_atomic(op.kind) || op.guard.never() || taken[i]) continue;  // taken: a tensor map's copy
    auto& line = clusters[line_of(sass.instructions[static_cast<std::size_t>(op.instruction)])];
    const bool companion = !line.empty() && [&] {
      const sass::SassMemoryOp& head = sass.memory_ops[static_cast<std::size_t>(line.back().front())];
      const GuardClass hg = guards[static_cast<std::size_t>(head.instruction)];
      const GuardClass g = guards[static_cast<std::size_t>(op.instruction)];
      if (op.atomic == sass::AtomicOp::Cast && head.atomic != sass::AtomicOp::Cast) return true;  // a fallback loop
      if (op.atomic == sass::AtomicOp::Cast && head.kind == sass::Kind::GenericAtomic) return true;
      return hg == GuardClass::NotFull && g == GuardClass::Leader && line.back().size() == 1;
    }();
    if (companion) line.back().push_back(static_cast<int>(i));
    else line.push_back({static_cast<int>(i)});
  }
  // Pairs PTX atomics with clusters at the same position (with call sites, then without);
  // a position whose counts differ keeps the prediction.
  std::vector<const ptx::Instruction*> atomics;
  for (const ptx::Function* f : functions)
    for (const ptx::Instruction& inst : f->body)
      if (inst.opcode == ptx::Opcode::Atom || inst.opcode == ptx::Opcode::Red) atomics.push_back(&inst);
  std::map<const ptx::Instruction*, const std::vector<int>*> pairs;
  std::set<const std::vector<int>*> used;
  for (bool strict : {true, false}) {
    std::map<LineKey, std::vector<const ptx::Instruction*>> ptx_at;
    for (const ptx::Instruction* inst : atomics)
      if (!pairs.count(inst)) ptx_at[strict ? line_of(module, *inst) : line_of(module, *inst).loose()].push_back(inst);
    std::map<LineKey, std::vector<const std::vector<int>*>> sass_at;
    for (const auto& [line, cs] : clusters)
      for (const auto& c : cs)
        if (!used.count(&c)) sass_at[strict ? line : line.loose()].push_back(&c);
    for (const auto& [line, insts] : ptx_at) {
      auto c = sass_at.find(line);
      if (c == sass_at.end() || c->second.size() != insts.size()) continue;
      for (std::size_t k = 0; k < insts.size(); ++k) {
        pairs[insts[k]] = c->second[k];
        used.insert(c->second[k]);
      }
    }
  }
  for (const ptx::Instruction* ip : atomics) {
    const ptx::Instruction& inst = *ip;
    {
      InstructionPlan& role = plan.roles[&inst];
      role.has_atomic = true;
      role.atomic = predicted_atomic(inst);
      auto pair = pairs.find(ip);
      if (pair == pairs.end()) continue;
      const std::vector<int>& cluster = *pair->second;
      const LineKey line = line_of(sass.instructions[static_cast<std::size_t>(
          sass.memory_ops[static_cast<std::size_t>(cluster.front())].instruction)]);
      const sass::SassMemoryOp& head = sass.memory_ops[static_cast<std::size_t>(cluster.front())];
      AtomicRole r;
      r.from_sass = true;
      r.global_op = head.kind == sass::Kind::GlobalReduction ? model::MemOp::GlobalReduction : model::MemOp::GlobalAtomic;
      const GuardClass g = guards[static_cast<std::size_t>(head.instruction)];
      const bool ptx_cas = inst.subop == ptx::SubOp::Cas && !sixteen_bit(inst);
      const bool loop = head.loop >= 0 && (head.atomic == sass::AtomicOp::Cast ||
                                           (head.atomic == sass::AtomicOp::Cas && !ptx_cas));
      const bool swap = inst.subop == ptx::SubOp::Cas || inst.subop == ptx::SubOp::Exch;
      r.retried = head.loop >= 0 && !loop && swap;
      if (loop) {
        r.lowering = g == GuardClass::Leader ? AtomicLowering::LeaderCasLoop : AtomicLowering::CasLoop;
        r.cas_bytes = head.width;
      } else if (head.atomic == sass::AtomicOp::PopcInc) {
        r.lowering = AtomicLowering::PopcInc;
      } else if (cluster.size() == 2 && g == GuardClass::NotFull) {
        r.lowering = AtomicLowering::LeaderWhenFull;
      } else if (g == GuardClass::Leader) {
        r.lowering = AtomicLowering::Leader;
      }
      if (head.kind == sass::Kind::GenericAtomic && cluster.size() > 1) r.shared_fallback = true;
      r.generic = head.kind == sass::Kind::GenericAtomic;
      // The loads of the CAS loops belong to the atomic, not to a PTX load.
      for (int m : cluster) {
        const sass::SassMemoryOp& a = sass.memory_ops[static_cast<std::size_t>(m)];
        if (a.loop < 0) continue;
        const sass::SassLoop& l = sass.loops[static_cast<std::size_t>(a.loop)];
        for (std::size_t j = 0; j < sass.memory_ops.size(); ++j) {
          const sass::SassMemoryOp& ld = sass.memory_ops[j];
          const bool near = (ld.loop == a.loop) || (ld.instruction < l.head && ld.instruction >= l.head - 8);
          if (sass::is_load(ld.kind) && near && line_of(sass.instructions[static_cast<std::size_t>(ld.instruction)]) == line)
            taken[j] = true;
        }
      }
      if (r.lowering != AtomicLowering::Native || r.shared_fallback) ++plan.atomics_lowered;
      role.atomic = r;
    }
  }
}

}  // namespace warpscope::analysis::detail
