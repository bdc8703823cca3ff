// sass_plan.cc: plan_from_sass and plan_from_ptx (sass_plan.h), and the dead-load rule.
#include "analysis/sass_plan.h"

#include <algorithm>
#include <set>
#include <tuple>

#include "analysis/sass_match.h"

namespace warpscope::analysis {

namespace {

// The PTX functions whose code the SASS function `name` holds: its own, and the functions it
// calls (transitively) that ptxas inlined (they have no SASS function of their own).
std::vector<const ptx::Function*> functions_of(const ptx::Module& module, int root,
                                               const std::set<std::string>& with_sass) {
  std::vector<const ptx::Function*> out;
  std::vector<int> todo{root};
  std::set<int> seen{root};
  while (!todo.empty()) {
    const int fi = todo.back();
    todo.pop_back();
    const ptx::Function& f = module.functions[static_cast<std::size_t>(fi)];
    out.push_back(&f);
    for (const ptx::CallSite& c : f.calls) {
      if (c.callee < 0 || seen.count(c.callee)) continue;
      const ptx::Function& callee = module.functions[static_cast<std::size_t>(c.callee)];
      if (callee.is_declaration || with_sass.count(callee.name)) continue;
      seen.insert(c.callee);
      todo.push_back(c.callee);
    }
  }
  return out;
}

bool is_load(const ptx::Instruction& inst) {
  return (inst.opcode == ptx::Opcode::Ld || inst.opcode == ptx::Opcode::Ldu) &&
         (inst.space == ptx::Space::Shared || inst.space == ptx::Space::Global || inst.space == ptx::Space::None);
}

// Loads whose destination registers are all never read: ptxas removes them (unless volatile).
// ldmatrix too: a pipelined GEMM's drain, unrolled, loads fragments for a k step after the
// last one (LeetCUDA's hgemm stages kernels: 1 LDSM in 33 never runs).
// Reads are counted as the parser counts them for atomics (ptx/instruction_parser.cc).
void drop_dead_loads(const ptx::Function& f, SassPlan& plan) {
  std::vector<int> reads(f.registers.size(), 0);
  for (const ptx::Instruction& inst : f.body)
    for (std::uint32_t r : detail::registers_read(inst))
      if (r < reads.size()) ++reads[r];
  for (const ptx::Instruction& inst : f.body) {
    if (!(is_load(inst) || inst.opcode == ptx::Opcode::LdMatrix) || inst.has(ptx::flag::Volatile)) continue;
    // Only a load no SASS instruction explained (a listing that has it wins over the rule).
    if (const InstructionPlan* r = plan.role(&inst); r && !(r->action == InstructionPlan::Action::AsIs && r->unmatched))
      continue;
    const ptx::Operand& d = inst.op(0);
    bool dead = true;
    if (d.kind == ptx::OperandKind::Reg) dead = d.reg[0] < reads.size() && reads[d.reg[0]] == 0;
    else if (d.kind == ptx::OperandKind::Vec)
      for (int k = 0; k < d.count; ++k) {
        const std::uint32_t r = inst.vec_reg(d, k);
        if (r != ptx::kNoReg && r < reads.size() && reads[r] > 0) dead = false;
      }
    else dead = false;
    if (!dead) continue;
    InstructionPlan& r = plan.roles[&inst];
    r.action = InstructionPlan::Action::Drop;
    if (r.unmatched) {
      r.unmatched = false;
      --plan.unmatched_ptx;
    }
    ++plan.dropped;
  }
}

// A read another warp can change while this one loops on it (as emu/program.cc's spin-wait
// detection).
bool polls_memory(const ptx::Instruction& inst) {
  if (!is_load(inst)) return false;
  return inst.has(ptx::flag::Volatile) || inst.text.find(".acquire") != std::string::npos ||
         inst.text.find(".relaxed") != std::string::npos;
}

// The kernel's TMA loads, in order, against its UTMALDGs: when the counts agree, a predicated
// UTMALDG of an unpredicated PTX copy marks it (ptxas if-converted the branch around it; a
// copy predicated in the PTX, as Triton writes them, already runs in every warp).
void match_tma_loads(const ptx::Function& f, const sass::SassFunction& sf, SassPlan& plan) {
  std::vector<const ptx::Instruction*> loads;
  for (const ptx::Instruction& inst : f.body)
    if (inst.opcode == ptx::Opcode::CpAsyncBulkTensor && inst.space == ptx::Space::Shared) loads.push_back(&inst);
  std::vector<const sass::SassInstruction*> utma;
  for (const sass::SassInstruction& s : sf.instructions)
    if (s.opcode == "UTMALDG") utma.push_back(&s);
  if (loads.empty() || loads.size() != utma.size()) return;
  for (std::size_t i = 0; i < loads.size(); ++i)
    if (utma[i]->guard.present() && loads[i]->guard == ptx::kNoReg) plan.predicated_tma_loads.insert(loads[i]);
}

}  // namespace

void mark_retries(const ptx::Function& f, SassPlan& plan) {
  // Loops: a backward branch at j to t spans [t, j]; a loop "stores" if a st, red or
  // non-swap atom lies inside.
  const int n = static_cast<int>(f.body.size());
  std::vector<std::pair<int, int>> loops;
  for (int j = 0; j < n; ++j) {
    const ptx::Instruction& b = f.body[static_cast<std::size_t>(j)];
    if (b.opcode != ptx::Opcode::Bra || b.num_operands < 1 || b.op(0).kind != ptx::OperandKind::Label) continue;
    const int t = static_cast<int>(b.op(0).imm);
    if (t >= 0 && t <= j) loops.emplace_back(t, j);
  }
  auto memory = [](const ptx::Instruction& inst) {
    const bool access = inst.opcode == ptx::Opcode::Ld || inst.opcode == ptx::Opcode::Ldu || inst.opcode == ptx::Opcode::St;
    return access && (inst.space == ptx::Space::Shared || inst.space == ptx::Space::Global || inst.space == ptx::Space::None);
  };
  for (const auto& [t, j] : loops) {
    bool stores = false, retries = false;
    for (int i = t; i <= j; ++i) {
      const ptx::Instruction& inst = f.body[static_cast<std::size_t>(i)];
      if (inst.opcode == ptx::Opcode::St || inst.opcode == ptx::Opcode::Red) stores = true;
      if (inst.opcode == ptx::Opcode::Atom && (inst.subop == ptx::SubOp::Cas || inst.subop == ptx::SubOp::Exch)) retries = true;
    }
    for (int i = t; i <= j; ++i) {
      const ptx::Instruction& inst = f.body[static_cast<std::size_t>(i)];
      const bool swap = inst.subop == ptx::SubOp::Cas || inst.subop == ptx::SubOp::Exch;
      if (inst.opcode == ptx::Opcode::Atom && swap) {
        if (auto it = plan.roles.find(&inst); it != plan.roles.end() && it->second.has_atomic)
          it->second.atomic.retried = true;
      } else if ((!stores && polls_memory(inst)) || (retries && memory(inst))) {
        // A spin-wait's poll, or an access of a loop that retries a cas or exch (Triton's lock
        // loop broadcasts each try's result through shared memory: a store and a load a try).
        plan.roles[&inst].polls = true;
      }
    }
  }
}

SassPlan plan_from_sass(const ptx::Module& module, const std::vector<sass::SassFunction>& sass) {
  SassPlan plan;
  std::set<std::string> with_sass;
  for (const sass::SassFunction& sf : sass) with_sass.insert(sf.name);
  std::set<const ptx::Function*> planned;
  for (const sass::SassFunction& sf : sass) {
    const int fi = module.find_function(sf.name);
    if (fi < 0) continue;
    const std::vector<const ptx::Function*> functions = functions_of(module, fi, with_sass);
    std::vector<bool> taken;    // by memory_ops index
    std::vector<bool> claimed;  // by instruction index: a tensor map's words
    detail::match_tensormap_copies(functions, sf, taken, claimed, plan);
    detail::match_atomics(module, functions, sf, taken, plan);
    // The loads of CAS loops are the atomics' (their lines are the atomic's, not a load's).
    for (std::size_t m = 0; m < taken.size() && m < sf.memory_ops.size(); ++m)
      if (taken[m] && !sass::is_atomic(sf.memory_ops[m].kind)) {
        const auto i = static_cast<std::size_t>(sf.memory_ops[m].instruction);
        if (claimed.size() <= i) claimed.resize(i + 1, false);
        claimed[i] = true;
      }
    detail::Placements placed;
    detail::match_accesses(module, functions, sf, taken, plan, &placed);
    detail::mark_hoisted_loads(functions, sf, placed, plan);
    detail::drop_forwarded_accesses(functions, placed, plan);
    detail::match_unrolled_loops(module, functions, sf, plan);
    detail::match_sunk_loads(module, functions, sf, plan);
    detail::match_tensormap_fields(module, functions, sf, taken, claimed, plan);
    for (const ptx::Function* f : functions)
      if (planned.insert(f).second) drop_dead_loads(*f, plan);
    detail::attribute_lines(module, functions, sf, claimed, plan, &placed);
    match_tma_loads(module.functions[static_cast<std::size_t>(fi)], sf, plan);
    for (const ptx::Function* f : functions) mark_retries(*f, plan);
  }
  // Functions no listing covers: what ptxas does anyway.
  for (const ptx::Function& f : module.functions) {
    if (f.is_declaration || planned.count(&f)) continue;
    for (const ptx::Instruction& inst : f.body)
      if ((inst.opcode == ptx::Opcode::Atom || inst.opcode == ptx::Opcode::Red) && !plan.role(&inst)) {
        InstructionPlan& r = plan.roles[&inst];
        r.has_atomic = true;
        r.atomic = detail::predicted_atomic(inst);
      }
    drop_dead_loads(f, plan);
    mark_retries(f, plan);
  }
  return plan;
}

SassPlan plan_from_ptx(const ptx::Module& module) {
  SassPlan plan;
  for (const ptx::Function& f : module.functions) {
    if (f.is_declaration) continue;
    for (const ptx::Instruction& inst : f.body)
      if (inst.opcode == ptx::Opcode::Atom || inst.opcode == ptx::Opcode::Red) {
        InstructionPlan& r = plan.roles[&inst];
        r.has_atomic = true;
        r.atomic = detail::predicted_atomic(inst);
        if (r.atomic.lowering != AtomicLowering::Native) ++plan.atomics_lowered;
      }
    drop_dead_loads(f, plan);
    mark_retries(f, plan);
  }
  return plan;
}

bool needs_sass(const ptx::Module& module) {
  for (const ptx::Function& f : module.functions) {
    std::vector<std::tuple<ptx::Opcode, ptx::Space, int, std::uint32_t, std::int32_t, std::int64_t>> seen;
    for (const ptx::Instruction& inst : f.body) {
      if (inst.opcode == ptx::Opcode::Atom || inst.opcode == ptx::Opcode::Red) return true;
      // A tensor map built on the device: the words ptxas reads and writes (sass_tensormap.cc).
      if (inst.opcode == ptx::Opcode::TensormapReplace) return true;
      // A TMA load under a branch: ptxas may predicate it (SassPlan::predicated_tma_loads).
      if (inst.opcode == ptx::Opcode::CpAsyncBulkTensor && inst.space == ptx::Space::Shared) return true;
      const bool load = inst.opcode == ptx::Opcode::Ld;
      if (!load && inst.opcode != ptx::Opcode::St) continue;
      if (inst.space != ptx::Space::Shared && inst.space != ptx::Space::Global && inst.space != ptx::Space::None)
        continue;
      const ptx::Operand& a = inst.op(load ? 1 : 0);
      const int width = ptx::type_bits(inst.type) / 8 * inst.vec;
      if (a.kind != ptx::OperandKind::Addr || width <= 0) continue;
      const std::size_t from = seen.size() > 256 ? seen.size() - 256 : 0;
      for (std::size_t i = from; i < seen.size(); ++i) {
        const auto& [op, space, w, reg, sym, imm] = seen[i];
        if (op == inst.opcode && space == inst.space && w == width && reg == a.reg[0] && sym == a.symbol &&
            (imm - a.imm == width || a.imm - imm == width))
          return true;
      }
      seen.emplace_back(inst.opcode, inst.space, width, a.reg[0], a.symbol, a.imm);
    }
  }
  return false;
}

}  // namespace warpscope::analysis
