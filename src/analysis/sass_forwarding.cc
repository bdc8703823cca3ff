// sass_forwarding.cc: shared-memory accesses ptxas moves or removes that the PTX keeps, found
// from where the matcher placed them (sass_match.h):
//
//   hoisted    for (i = tid; i < n; i += blockDim.x) out[i] = x[i] * s_scale * __ldg(&w[i]);
//              PTX: ld.shared [s_scale] in the loop (nvcc does not move it past the inline
//              asm of __ldg); SASS: one LDS before the loop (AutoAWQ's T5 RMS norm)
//   forwarded  vals[c] = x; m = vals[c]; ... vals[c] = e; out = vals[c] / sum;   (no barrier)
//              PTX: two st.shared and two ld.shared of one slot; SASS: one STS, no LDS: the
//              loads read the stored registers (ggml's soft_max_f32 with a one-warp block)
#include <set>

#include "analysis/sass_match.h"

namespace warpscope::analysis::detail {
namespace {

bool is_plain_load(const ptx::Instruction& inst) {
  if (inst.opcode != ptx::Opcode::Ld && inst.opcode != ptx::Opcode::Ldu) return false;
  if (inst.has(ptx::flag::Volatile)) return false;
  return inst.text.find(".acquire") == std::string::npos && inst.text.find(".relaxed") == std::string::npos &&
         inst.text.find(".volatile") == std::string::npos;
}

// How many PTX loops (a backward bra and the instructions it repeats) hold each instruction.
std::vector<int> loop_depths(const ptx::Function& f) {
  std::vector<int> depth(f.body.size(), 0);
  for (std::size_t j = 0; j < f.body.size(); ++j) {
    const ptx::Instruction& inst = f.body[j];
    if (inst.opcode != ptx::Opcode::Bra) continue;
    for (int i = 0; i < inst.num_operands; ++i) {
      const ptx::Operand& o = inst.op(i);
      if (o.kind != ptx::OperandKind::Label || o.imm < 0 || static_cast<std::size_t>(o.imm) > j) continue;
      for (std::size_t k = static_cast<std::size_t>(o.imm); k <= j; ++k) ++depth[k];
    }
  }
  return depth;
}

int sass_depth(const sass::SassFunction& sass, int i) {
  int d = 0;
  for (const sass::SassLoop& l : sass.loops) d += l.contains(i) ? 1 : 0;
  return d;
}

std::set<std::size_t> label_targets(const ptx::Function& f) {
  std::set<std::size_t> targets;
  for (const ptx::Instruction& inst : f.body)
    for (int i = 0; i < inst.num_operands; ++i)
      if (inst.op(i).kind == ptx::OperandKind::Label && inst.op(i).imm >= 0)
        targets.insert(static_cast<std::size_t>(inst.op(i).imm));
  return targets;
}

// Ends a basic block for forwarding: control flow, a barrier, a fence, an atomic, an async copy.
bool ends_block(const ptx::Instruction& inst) {
  const ptx::Family fam = ptx::family_of(inst.opcode);
  return fam == ptx::Family::Control || fam == ptx::Family::Async || inst.opcode == ptx::Opcode::Membar ||
         inst.opcode == ptx::Opcode::Fence || inst.opcode == ptx::Opcode::Atom || inst.opcode == ptx::Opcode::Red ||
         inst.opcode == ptx::Opcode::CpAsync;
}

// The memory operand of a shared load or store: [reg + symbol + imm].
const ptx::Operand* shared_address(const ptx::Instruction& inst) {
  const bool load = inst.opcode == ptx::Opcode::Ld;
  if ((!load && inst.opcode != ptx::Opcode::St) || inst.space != ptx::Space::Shared) return nullptr;
  const ptx::Operand& a = inst.op(load ? 1 : 0);
  return a.kind == ptx::OperandKind::Addr ? &a : nullptr;
}

int bytes_of(const ptx::Instruction& inst) { return ptx::type_bits(inst.type) / 8 * std::max<int>(1, inst.vec); }

bool writes_register(const ptx::Instruction& inst, std::uint32_t reg) {
  if (reg == ptx::kNoReg || !ptx::writes_first_operand(inst.opcode) || inst.num_operands == 0) return false;
  const ptx::Operand& d = inst.op(0);
  if (d.kind == ptx::OperandKind::Reg) return d.reg[0] == reg;
  if (d.kind == ptx::OperandKind::Vec)
    for (int k = 0; k < d.count; ++k)
      if (inst.vec_reg(d, k) == reg) return true;
  return false;
}

// True when [from, to] is entered only at `from`: every branch in it lands in it, after `from`,
// and every label in it is reached only from inside (so what runs at `from` runs before `to`).
bool single_entry(const ptx::Function& f, std::size_t from, std::size_t to) {
  for (std::size_t k = 0; k < f.body.size(); ++k) {
    const ptx::Instruction& inst = f.body[k];
    if (inst.opcode != ptx::Opcode::Bra) continue;
    for (int i = 0; i < inst.num_operands; ++i) {
      const ptx::Operand& o = inst.op(i);
      if (o.kind != ptx::OperandKind::Label || o.imm < 0) continue;
      const auto t = static_cast<std::size_t>(o.imm);
      const bool inside = k >= from && k <= to, lands_inside = t > from && t <= to;
      if (inside && t != to + 1 && !(lands_inside && t > k)) return false;  // leaves, or loops back
      if (!inside && lands_inside) return false;                            // enters from outside
    }
  }
  return true;
}

}  // namespace

void mark_hoisted_loads(const std::vector<const ptx::Function*>& functions, const sass::SassFunction& sass,
                        const Placements& placed, SassPlan& plan) {
  for (const ptx::Function* f : functions) {
    const std::vector<int> depth = loop_depths(*f);
    for (std::size_t j = 0; j < f->body.size(); ++j) {
      const ptx::Instruction& inst = f->body[j];
      if (depth[j] == 0 || !is_plain_load(inst) || (inst.space != ptx::Space::Shared && inst.space != ptx::Space::Const))
        continue;
      auto it = plan.roles.find(&inst);
      auto at = placed.find(&inst);
      if (it == plan.roles.end() || at == placed.end() || at->second.size() != 1) continue;
      InstructionPlan& r = it->second;
      if (r.action != InstructionPlan::Action::AsIs || r.unmatched || r.reuse_group >= 0 || r.unrolled >= 0 ||
          r.sunk_into != nullptr)
        continue;
      if (sass_depth(sass, at->second.front()) >= depth[j]) continue;
      r.reuse_group = plan.next_group++;
      r.reuse_slots = 1;
      r.reuse_subset = true;
      ++plan.reuse_groups;
    }
  }
}

void drop_forwarded_accesses(const std::vector<const ptx::Function*>& functions, const Placements& placed,
                             SassPlan& plan) {
  for (const ptx::Function* f : functions) {
    const std::set<std::size_t> targets = label_targets(*f);
    for (std::size_t j = 0; j < f->body.size(); ++j) {
      const ptx::Instruction& inst = f->body[j];
      const ptx::Operand* a = shared_address(inst);
      if (a == nullptr) continue;
      auto role = plan.roles.find(&inst);
      const bool load = inst.opcode == ptx::Opcode::Ld;
      if (load && (!is_plain_load(inst) || role == plan.roles.end() || !role->second.unmatched)) continue;
      if (!load && (role == plan.roles.end() || role->second.action != InstructionPlan::Action::AsIs)) continue;
      const int bytes = bytes_of(inst);
      // Back to a store of the same bytes through the same address: for a load, across
      // branches that skip code between them (a region entered only at the store); for a
      // store, in one basic block.
      for (std::size_t k = j; k-- > 0;) {
        const ptx::Instruction& prev = f->body[k];
        const bool branch = prev.opcode == ptx::Opcode::Bra;
        if ((!load && (targets.count(k + 1) || branch)) || (ends_block(prev) && !(load && branch)) ||
            writes_register(prev, a->reg[0]))
          break;
        const ptx::Operand* b = shared_address(prev);
        if (b == nullptr || prev.opcode != ptx::Opcode::St) continue;
        if (b->reg[0] != a->reg[0] || b->symbol != a->symbol) continue;  // another base: ptxas's business
        const std::int64_t lo = b->imm, hi = b->imm + bytes_of(prev);
        if (hi <= a->imm || a->imm + bytes <= lo) continue;  // other bytes of the same base
        if (load) {
          if (lo <= a->imm && a->imm + bytes <= hi && single_entry(*f, k, j)) {  // the load reads the stored register
            role->second.action = InstructionPlan::Action::Drop;
            role->second.unmatched = false;
            --plan.unmatched_ptx;
            ++plan.dropped;
          }
        } else if (lo == a->imm && hi == a->imm + bytes) {
          // Two stores of the same bytes in one SASS store: the earlier never reaches memory.
          auto p = placed.find(&prev), q = placed.find(&inst);
          auto earlier = plan.roles.find(&prev);
          if (p != placed.end() && q != placed.end() && p->second == q->second && p->second.size() == 1 &&
              earlier != plan.roles.end() && earlier->second.action == InstructionPlan::Action::AsIs) {
            earlier->second.action = InstructionPlan::Action::Drop;
            ++plan.dropped;
          }
        }
        break;
      }
    }
  }
}

}  // namespace warpscope::analysis::detail
