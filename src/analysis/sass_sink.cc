// sass_sink.cc: loads ptxas moved past an early exit or past the branch that skips the region
// their values are used in (sunk_loads.h): which PTX loads, confirmed by the listing (a
// predicated EXIT, or a predicated BRA, right before the load's SASS).
#include <algorithm>

#include "analysis/sass_match.h"

namespace warpscope::analysis::detail {
namespace {

bool plain(const ptx::Instruction& inst) {
  switch (ptx::family_of(inst.opcode)) {
    case ptx::Family::Arith:
    case ptx::Family::Bits:
    case ptx::Family::Compare:
    case ptx::Family::Move:
    case ptx::Family::Nop:
    case ptx::Family::Special: break;
    default: return false;
  }
  for (int i = 0; i < inst.num_operands; ++i)
    if (inst.op(i).kind == ptx::OperandKind::Addr) return false;
  return true;
}

// The registers a load writes (its destination, or each element of a vector).
std::vector<std::uint32_t> loaded_registers(const ptx::Instruction& ld) {
  const ptx::Operand& d = ld.op(0);
  std::vector<std::uint32_t> value;
  if (d.kind == ptx::OperandKind::Reg) value.push_back(d.reg[0]);
  else if (d.kind == ptx::OperandKind::Vec)
    for (int k = 0; k < d.count; ++k) value.push_back(ld.vec_reg(d, k));
  return value;
}

// The store that is the only reader of load `i`'s value, under a predicate, with only plain
// instructions, other plain loads and other stores between them (Triton's epilogue stores
// two tiles: the second tile's load sinks past the first's store), and only plain ones after
// it (then ret or exit); -1 when there is none.
int sole_predicated_store(const ptx::Function& f, int i) {
  const std::vector<std::uint32_t> value = loaded_registers(f.body[static_cast<std::size_t>(i)]);
  if (value.empty()) return -1;
  int store = -1;
  for (int k = 0; k < static_cast<int>(f.body.size()); ++k) {
    const ptx::Instruction& inst = f.body[static_cast<std::size_t>(k)];
    const auto r = registers_read(inst);
    if (std::none_of(r.begin(), r.end(), [&](std::uint32_t x) { return std::count(value.begin(), value.end(), x) > 0; }))
      continue;
    if (store >= 0 || k <= i || inst.opcode != ptx::Opcode::St || inst.guard == ptx::kNoReg) return -1;
    const ptx::Operand& a = inst.op(0);
    if (a.kind == ptx::OperandKind::Addr && std::count(value.begin(), value.end(), a.reg[0]) > 0) return -1;
    store = k;
  }
  if (store < 0) return -1;
  for (int k = i + 1; k < static_cast<int>(f.body.size()); ++k) {
    const ptx::Instruction& inst = f.body[static_cast<std::size_t>(k)];
    if (k == store) continue;
    const bool last = inst.opcode == ptx::Opcode::Ret || inst.opcode == ptx::Opcode::Exit;
    if (last && k > store) break;
    const bool memory = k < store && !inst.has(ptx::flag::Volatile) &&
                        (inst.opcode == ptx::Opcode::St || inst.opcode == ptx::Opcode::Ld);
    if (!plain(inst) && !memory) return -1;
  }
  // No branch lands between the load and its store (one landing at the ret after the store,
  // a skipped `if dB:` block of Triton's layer-norm backward, leaves the load's path alone).
  for (const ptx::Instruction& b : f.body)
    if (b.opcode == ptx::Opcode::Bra && b.num_operands > 0 && b.op(0).kind == ptx::OperandKind::Label &&
        b.op(0).imm > i && b.op(0).imm <= store)
      return -1;
  return store;
}

// Load `i` before a forward branch that skips a region: only plain instructions and other
// loads between them, no loop around the load, and every read of its value inside the region
// (the branch's fall-through up to its target). The region as [first, end) instruction
// indexes, or {-1, -1}.
std::pair<int, int> region_after_branch(const ptx::Function& f, int i) {
  const int n = static_cast<int>(f.body.size());
  for (int j = 0; j < n; ++j) {  // a backward branch around the load: a loop, not this
    const ptx::Instruction& b = f.body[static_cast<std::size_t>(j)];
    if (b.opcode == ptx::Opcode::Bra && b.num_operands > 0 && b.op(0).kind == ptx::OperandKind::Label && j >= i &&
        b.op(0).imm <= i)
      return {-1, -1};
  }
  int branch = -1;
  for (int k = i + 1; k < n && branch < 0; ++k) {
    const ptx::Instruction& inst = f.body[static_cast<std::size_t>(k)];
    if (inst.opcode == ptx::Opcode::Bra) branch = k;
    else if (!plain(inst) && !((inst.opcode == ptx::Opcode::Ld || inst.opcode == ptx::Opcode::Ldu) &&
                               !inst.has(ptx::flag::Volatile)))
      return {-1, -1};
  }
  if (branch < 0) return {-1, -1};
  const ptx::Instruction& b = f.body[static_cast<std::size_t>(branch)];
  if (b.guard == ptx::kNoReg || b.num_operands < 1 || b.op(0).kind != ptx::OperandKind::Label) return {-1, -1};
  const int target = static_cast<int>(b.op(0).imm);
  if (target <= branch + 1) return {-1, -1};
  const std::vector<std::uint32_t> value = loaded_registers(f.body[static_cast<std::size_t>(i)]);
  if (value.empty()) return {-1, -1};
  bool read = false;
  for (int k = 0; k < n; ++k) {
    const auto r = registers_read(f.body[static_cast<std::size_t>(k)]);
    if (std::none_of(r.begin(), r.end(), [&](std::uint32_t x) { return std::count(value.begin(), value.end(), x) > 0; }))
      continue;
    if (k <= branch || k >= target) return {-1, -1};
    read = true;
  }
  return read ? std::pair<int, int>{branch + 1, target} : std::pair<int, int>{-1, -1};
}

// The listing agrees: a SASS load of the line, kind and width comes right after a predicated
// `jump` (EXIT: an early exit; BRA: a branch around a region), with nothing between but
// instructions that are no other jump, barrier or memory access (loads are allowed).
bool follows_predicated(const ptx::Module& module, const ptx::Instruction& ld, const sass::SassFunction& sass,
                        const std::string& jump) {
  const LineKey line = line_of(module, ld);
  const int width = ptx::type_bits(ld.type) / 8 * ld.vec;
  std::vector<int> access(sass.instructions.size(), 0);  // 1 a load, 2 another access
  for (const sass::SassMemoryOp& op : sass.memory_ops)
    access[static_cast<std::size_t>(op.instruction)] = sass::is_load(op.kind) ? std::max(access[static_cast<std::size_t>(op.instruction)], 1) : 2;
  for (const sass::SassMemoryOp& op : sass.memory_ops) {
    if (!sass::is_load(op.kind) || op.width != width || op.guard.present()) continue;
    if (!(line_of(sass.instructions[static_cast<std::size_t>(op.instruction)]) == line)) continue;
    for (int k = op.instruction - 1; k >= 0; --k) {
      const sass::SassInstruction& s = sass.instructions[static_cast<std::size_t>(k)];
      if (s.opcode == jump) {
        if (s.guard.present()) return true;
        break;
      }
      if (s.opcode == "EXIT" || s.opcode == "BRA" || s.opcode == "BAR" || s.opcode == "BSYNC" ||
          s.opcode == "WARPSYNC" || access[static_cast<std::size_t>(k)] == 2)
        break;
    }
  }
  return false;
}

}  // namespace

// The registers `inst` reads (its guard and its sources; an address's base).
std::vector<std::uint32_t> registers_read(const ptx::Instruction& inst) {
  std::vector<std::uint32_t> out;
  if (inst.guard != ptx::kNoReg) out.push_back(inst.guard);
  int first_source = ptx::writes_first_operand(inst.opcode) ? 1 : 0;
  if (inst.opcode == ptx::Opcode::Setp || inst.opcode == ptx::Opcode::Shfl || inst.opcode == ptx::Opcode::Match)
    first_source = 2;
  for (int i = 0; i < inst.num_operands; ++i) {
    const ptx::Operand& o = inst.op(i);
    if (i < first_source && o.kind != ptx::OperandKind::Addr) continue;
    if (o.kind == ptx::OperandKind::Reg || o.kind == ptx::OperandKind::Addr) out.push_back(o.reg[0]);
    if (o.kind == ptx::OperandKind::Vec)
      for (int k = 0; k < o.count; ++k) out.push_back(inst.vec_reg(o, k));
  }
  return out;
}

void match_sunk_loads(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                      const sass::SassFunction& sass, SassPlan& plan) {
  for (const ptx::Function* f : functions)
    for (int i = 0; i < static_cast<int>(f->body.size()); ++i) {
      const ptx::Instruction& ld = f->body[static_cast<std::size_t>(i)];
      if ((ld.opcode != ptx::Opcode::Ld && ld.opcode != ptx::Opcode::Ldu) || ld.guard != ptx::kNoReg ||
          ld.has(ptx::flag::Volatile))
        continue;
      if (const InstructionPlan* r = plan.role(&ld);
          r && !(r->action == InstructionPlan::Action::AsIs && r->reuse_group < 0 && r->unrolled < 0 && !r->unmatched))
        continue;
      const int store = sole_predicated_store(*f, i);
      if (store >= 0 && follows_predicated(module, ld, sass, "EXIT")) {
        plan.roles[&ld].sunk_into = &f->body[static_cast<std::size_t>(store)];
        ++plan.sunk_loads;
        continue;
      }
      const auto [first, end] = region_after_branch(*f, i);
      if (first < 0 || !follows_predicated(module, ld, sass, "BRA")) continue;
      InstructionPlan& r = plan.roles[&ld];
      r.sunk_into = &f->body[static_cast<std::size_t>(first)];
      r.sunk_until = f->body.data() + end;
      ++plan.sunk_loads;
    }
}

}  // namespace warpscope::analysis::detail
