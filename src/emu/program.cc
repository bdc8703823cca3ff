// program.cc: links a kernel and its callees into one flat program (see program.h).
#include "emu/program.h"

#include "emu/operand_shape.h"
#include "emu/reconvergence.h"
#include "emu/special_registers.h"
#include "support/kernel_name.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <unordered_map>
#include <unordered_set>

namespace warpscope::emu {
namespace {

using ptx::Opcode;
using ptx::OperandKind;
using ptx::Space;
using ptx::Type;

std::uint64_t align_up(std::uint64_t v, std::uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

std::uint64_t natural_align(const ptx::Variable& v) {
  if (v.align > 0) return static_cast<std::uint64_t>(v.align);
  int bytes = ptx::type_bits(v.type) / 8;
  return bytes > 0 ? static_cast<std::uint64_t>(bytes) : 1;
}

// Converts a float literal to the instruction's float type (0f for f64, 0d for f32).
std::uint64_t normalize_immediate(const ptx::Operand& o, Type target) {
  auto bits = static_cast<std::uint64_t>(o.imm);
  if (o.imm_type == Type::F32 && target == Type::F64) {
    float f;
    auto b = static_cast<std::uint32_t>(bits);
    std::memcpy(&f, &b, 4);
    double d = f;
    std::memcpy(&bits, &d, 8);
  } else if (o.imm_type == Type::F64 && (target == Type::F32 || target == Type::F16 || target == Type::BF16)) {
    double d;
    std::memcpy(&d, &bits, 8);
    auto f = static_cast<float>(d);
    std::uint32_t b;
    std::memcpy(&b, &f, 4);
    bits = b;
  }
  return bits;
}

// A read another warp can change while this one loops on it: a volatile, relaxed or
// acquire load, an atomic, a nanosleep back-off (spin-wait loops: cooperative groups'
// barrier_wait, locks).
bool polls_memory(const ptx::Instruction& inst) {
  switch (inst.opcode) {
    case Opcode::Atom: case Opcode::Nanosleep: return true;
    case Opcode::Ld: case Opcode::Ldu:
      return inst.has(ptx::flag::Volatile) || inst.text.find(".acquire") != std::string::npos ||
             inst.text.find(".relaxed") != std::string::npos || inst.text.find(".cv") != std::string::npos;
    default: return false;
  }
}

// Program::waits_on_other_blocks: a loop (a backward branch and its body) in which a
// branch's predicate derives from what a memory poll outside shared memory (which only the
// block's own warps change) read: a lock's cas, a flag's volatile load. The value may pass
// through shared memory (Triton broadcasts a scalar atomic's result: st.shared, bar.sync,
// ld.shared). A global atomic whose result decides nothing (a grid-stride atomicAdd) does
// not count: its figures do not depend on the order of the blocks.
bool polls_other_blocks_in_a_loop(const std::vector<Op>& code) {
  auto polls_outside_the_block = [](const Op& op) {
    const bool memory = op.opcode == Opcode::Atom || op.opcode == Opcode::Ld || op.opcode == Opcode::Ldu;
    return op.polls && memory && op.space != ptx::Space::Shared;
  };
  if (std::none_of(code.begin(), code.end(), polls_outside_the_block)) return false;
  std::unordered_set<std::uint32_t> tainted;
  for (std::uint32_t b = 0; b < code.size(); ++b) {
    const Op& back = code[b];
    if (back.opcode != Opcode::Bra || back.target > b) continue;
    tainted.clear();
    bool through_shared = false;
    // Twice over the body: values carried around the loop.
    for (int pass = 0; pass < 2; ++pass) {
      for (std::uint32_t pc = back.target; pc <= b; ++pc) {
        const Op& op = code[pc];
        if (op.opcode == Opcode::Bra) {
          if (op.guard != kNoRow && tainted.count(op.guard) != 0) return true;
          continue;
        }
        bool from_poll = polls_outside_the_block(op);
        for (int k = 0; k < op.nsrc && !from_poll; ++k) from_poll = tainted.count(op.src[static_cast<std::size_t>(k)]) != 0;
        if (op.opcode == Opcode::Ld && op.space == ptx::Space::Shared && through_shared) from_poll = true;
        if (!from_poll) continue;
        if (op.opcode == Opcode::St && op.space == ptx::Space::Shared) through_shared = true;
        for (int k = 0; k < op.ndst; ++k) tainted.insert(op.dst[static_cast<std::size_t>(k)]);
      }
    }
  }
  return false;
}

class Linker {
 public:
  Linker(const ptx::Module& m, int kernel, GlobalMemory& memory) : m_(m), memory_(memory) {
    p_.module = &m;
    p_.kernel = kernel;
  }

  Expected<Program> run() {
    const ptx::Function& k = m_.functions[static_cast<std::size_t>(p_.kernel)];
    if (!k.is_entry) return make_error("'" + k.name + "' is a .func, not a kernel (.entry)");
    p_.name = k.name;
    // Reachable functions, kernel first; reject recursion.
    order_.push_back(p_.kernel);
    std::vector<int> state(m_.functions.size(), 0);
    if (auto s = visit(p_.kernel, state); !s) return s.error();
    // Registers: one base per function.
    std::uint32_t rows = 0;
    for (int f : order_) {
      reg_base_[f] = rows;
      rows += static_cast<std::uint32_t>(m_.functions[static_cast<std::size_t>(f)].registers.size());
    }
    p_.zero_row = rows++;
    p_.discard_row = rows++;
    next_row_ = rows;
    layout_variables(k);
    // Code: functions laid out in order; remember each one's first index.
    std::uint32_t pc = 0;
    // Each body is followed by an implicit ret, so running off its end returns (or, in
    // the kernel, exits) instead of falling into the next function.
    for (int f : order_) {
      entry_[f] = pc;
      pc += static_cast<std::uint32_t>(m_.functions[static_cast<std::size_t>(f)].body.size()) + 1;
    }
    for (int f : order_) {
      const ptx::Function& fn = m_.functions[static_cast<std::size_t>(f)];
      for (const ptx::Instruction& inst : fn.body) {
        auto op = convert(f, fn, inst);
        if (!op) return op.error();
        if (auto shape = check_shape(*op); !shape)
          return make_error(shape.error().message + " at " + m_.describe(inst));
        p_.code.push_back(*op);
      }
      Op ret;
      ret.opcode = Opcode::Ret;
      ret.family = ptx::Family::Control;
      ret.origin = nullptr;
      p_.code.push_back(ret);
    }
    for (int f : order_)
      set_reconvergence_points(p_, entry_[f],
                               entry_[f] + static_cast<std::uint32_t>(m_.functions[static_cast<std::size_t>(f)].body.size()) + 1);
    p_.waits_on_other_blocks = polls_other_blocks_in_a_loop(p_.code);
    p_.first_constant_row = next_row_;
    p_.num_rows = next_row_ + static_cast<std::uint32_t>(p_.constants.size());
    // Constant rows were numbered as they were met: shift them after the sreg rows.
    return std::move(p_);
  }

 private:
  Status visit(int f, std::vector<int>& state) {
    state[static_cast<std::size_t>(f)] = 1;
    const ptx::Function& fn = m_.functions[static_cast<std::size_t>(f)];
    if (fn.is_declaration) {
      state[static_cast<std::size_t>(f)] = 2;
      return Ok{};
    }
    for (const ptx::CallSite& c : fn.calls) {
      int s = state[static_cast<std::size_t>(c.callee)];
      if (s == 1)
        return make_error("recursive call to '" + m_.functions[static_cast<std::size_t>(c.callee)].name +
                          "' is not supported");
      if (s == 0) {
        order_.push_back(c.callee);
        if (auto st = visit(c.callee, state); !st) return st;
      }
    }
    state[static_cast<std::size_t>(f)] = 2;
    return Ok{};
  }

  bool reachable(int f) const { return std::find(order_.begin(), order_.end(), f) != order_.end(); }

  void layout_variables(const ptx::Function& k) {
    // Kernel parameters: the parameter buffer.
    std::uint64_t param_off = 0;
    for (int id : k.params) {
      const ptx::Variable& v = m_.variables[static_cast<std::size_t>(id)];
      param_off = align_up(param_off, natural_align(v));
      addr_[id] = param_off;
      kernel_param_.push_back(id);
      p_.params.push_back(KernelParam{v.name, v.type, static_cast<std::uint32_t>(param_off), static_cast<std::uint32_t>(v.size)});
      param_off += v.size;
    }
    p_.param_bytes = static_cast<std::uint32_t>(param_off);
    // Which symbols do the reachable functions name?
    std::vector<bool> used(m_.variables.size(), false);
    for (int f : order_)
      for (const ptx::Instruction& inst : m_.functions[static_cast<std::size_t>(f)].body)
        for (int i = 0; i < inst.num_operands; ++i)
          if (inst.op(i).symbol >= 0) used[static_cast<std::size_t>(inst.op(i).symbol)] = true;
    std::uint64_t shared = 0, local = 0;
    std::uint64_t dyn_align = 16;
    for (std::size_t id = 0; id < m_.variables.size(); ++id) {
      const ptx::Variable& v = m_.variables[id];
      bool in_scope = v.function < 0 || reachable(v.function);
      if (!in_scope) continue;
      int iid = static_cast<int>(id);
      if (v.space == Space::Shared) {
        if (!used[id]) continue;
        if (v.is_dynamic || (v.is_extern && v.size == 0)) {
          dyn_align = std::max(dyn_align, natural_align(v));
          dynamic_.push_back(iid);
          continue;
        }
        shared = align_up(shared, natural_align(v));
        addr_[iid] = shared;
        region_[iid] = static_cast<int>(p_.regions.size());
        p_.regions.push_back(Region{v.name, model::Space::Shared, shared, v.size});
        shared += v.size;
      } else if (v.space == Space::Local ||
                 (v.space == Space::Param && std::find(kernel_param_.begin(), kernel_param_.end(), iid) == kernel_param_.end())) {
        local = align_up(local, std::max<std::uint64_t>(natural_align(v), 4));
        addr_[iid] = local;
        local_.push_back(iid);
        local += v.size == 0 ? 8 : v.size;
      } else if ((v.space == Space::Global || v.space == Space::Const) && used[id]) {
        addr_[iid] = global_address(iid);
      }
    }
    p_.static_shared_bytes = static_cast<std::uint32_t>(shared);
    p_.dynamic_shared_offset = static_cast<std::uint32_t>(align_up(shared, dyn_align));
    p_.uses_dynamic_shared = !dynamic_.empty();
    for (int id : dynamic_) {
      addr_[id] = p_.dynamic_shared_offset;
      if (region_.find(id) == region_.end()) {
        region_[id] = static_cast<int>(p_.regions.size());
        // Size is the launch's dynamic shared bytes; run() fills it in.
        p_.regions.push_back(Region{m_.variables[static_cast<std::size_t>(id)].name, model::Space::Shared,
                                    p_.dynamic_shared_offset, 0});
      }
    }
    p_.local_bytes = static_cast<std::uint32_t>(align_up(local, 16));
  }

  // A .global/.const variable's device address, allocated (with its initializer) once
  // per module and memory. Addresses inside initializers point at other such variables.
  std::uint64_t global_address(int id) {
    const ptx::Variable& v = m_.variables[static_cast<std::size_t>(id)];
    std::uint64_t* slot = memory_.symbol_slot(&v);
    if (*slot != 0) return *slot;
    std::vector<std::uint8_t> bytes(std::max<std::uint64_t>(v.size, 1), 0);
    std::copy_n(v.init.begin(), std::min<std::size_t>(v.init.size(), bytes.size()), bytes.begin());
    *slot = memory_.allocate(bytes, v.name);
    std::uint64_t self = *slot;
    for (const auto& [offset, target] : v.init_addresses) {
      const ptx::Variable& t = m_.variables[static_cast<std::size_t>(target)];
      std::uint64_t a = (t.space == Space::Global || t.space == Space::Const) ? global_address(target) : 0;
      auto data = memory_.bytes(self);
      if (offset + 8 <= data.size()) std::memcpy(data.data() + offset, &a, 8);
    }
    for (const auto& [offset, function] : v.init_functions) {
      const std::uint64_t a = function_address(function);
      auto data = memory_.bytes(self);
      if (offset + 8 <= data.size()) std::memcpy(data.data() + offset, &a, 8);
    }
    return self;
  }

  std::uint32_t constant_row(std::uint64_t value) {
    auto it = const_rows_.find(value);
    if (it != const_rows_.end()) return it->second;
    // Rows are numbered after the sreg rows at the end; store a provisional index.
    auto row = static_cast<std::uint32_t>(0x80000000u | p_.constants.size());
    p_.constants.push_back(value);
    const_rows_[value] = row;
    return row;
  }

  std::uint32_t sreg_row(ptx::Sreg s, std::uint8_t component) {
    for (const SregRow& r : p_.sregs)
      if (r.sreg == s && r.component == component) return r.row;
    std::uint32_t row = next_row_++;
    p_.sregs.push_back(SregRow{s, component, row});
    return row;
  }

  // The address of a symbol in its own space; the space an access through it uses.
  Expected<std::uint64_t> symbol_address(int id) {
    auto it = addr_.find(id);
    if (it == addr_.end())
      return make_error("symbol '" + m_.variables[static_cast<std::size_t>(id)].name + "' has no storage here");
    return it->second;
  }

  bool is_local_symbol(int id) const { return std::find(local_.begin(), local_.end(), id) != local_.end(); }

  Expected<Op> convert(int f, const ptx::Function& fn, const ptx::Instruction& inst) {
    Op op;
    op.opcode = inst.opcode;
    op.family = ptx::family_of(inst.opcode);
    op.type = inst.type;
    op.type2 = inst.type2;
    op.space = inst.space;
    op.space2 = inst.space2;
    op.cmp = inst.cmp;
    op.rounding = inst.rounding;
    op.subop = inst.subop;
    op.vec = inst.vec;
    op.flags = inst.flags;
    op.variant = inst.variant;
    op.guard_negated = inst.guard_negated;
    op.origin = &inst;
    std::uint32_t base = reg_base_[f];
    if (inst.guard != ptx::kNoReg) op.guard = base + inst.guard;
    if (inst.opcode == Opcode::Unsupported) return op;
    Type imm_target = inst.opcode == Opcode::Cvt ? inst.type2 : inst.type;
    bool reads_clock = false;
    auto reg_row = [&](std::uint32_t r) { return r == ptx::kNoReg ? p_.discard_row : base + r; };
    auto source_row = [&](const ptx::Operand& o) -> Expected<std::uint32_t> {
      switch (o.kind) {
        case OperandKind::Reg: return reg_row(o.reg[0]);
        case OperandKind::Imm: return constant_row(normalize_immediate(o, imm_target));
        case OperandKind::Sreg:
          if (is_clock(o.sreg)) reads_clock = true;
          return sreg_row(o.sreg, o.component);
        case OperandKind::FunctionAddress: return constant_row(function_address(static_cast<int>(o.imm)));
        case OperandKind::Symbol: {
          auto a = symbol_address(o.symbol);
          if (!a) return a.error();
          return constant_row(*a + static_cast<std::uint64_t>(o.imm));
        }
        default: return make_error("unexpected operand in '" + inst.text + "' at " + m_.describe(inst));
      }
    };
    if (op.family == ptx::Family::Tensor) {
      // Every operand keeps its full register list (see TensorOperands).
      TensorOperands t;
      for (int i = 0; i < inst.num_operands; ++i) {
        const ptx::Operand& o = inst.op(i);
        std::vector<std::uint32_t> rows;
        if (o.kind == OperandKind::Addr) {
          op.addr = o.reg[0] == ptx::kNoReg ? p_.zero_row : base + o.reg[0];
          op.offset = o.imm;
          if (o.symbol >= 0) {
            auto a = symbol_address(o.symbol);
            if (!a) return a.error();
            op.offset += static_cast<std::int64_t>(*a);
            const ptx::Variable& v = m_.variables[static_cast<std::size_t>(o.symbol)];
            if (v.space == Space::Shared) {
              if (op.space == Space::None) op.offset += static_cast<std::int64_t>(kSharedWindow);
              auto r = region_.find(o.symbol);
              if (r != region_.end()) op.region = r->second;
            }
          }
        } else if (o.kind == OperandKind::Vec) {
          for (int k = 0; k < o.count; ++k) {
            if (k < 4 && ((o.vec_imm_mask >> k) & 1u)) {  // numbers only in vectors of up to 4
              ptx::Operand element;
              element.imm = o.vec_imm[static_cast<std::size_t>(k)];
              element.imm_type = o.vec_imm_type[static_cast<std::size_t>(k)];
              rows.push_back(constant_row(normalize_immediate(element, Type::F32)));
            } else {
              rows.push_back(reg_row(inst.vec_reg(o, k)));
            }
          }
        } else {
          if (o.negated) op.negated_src |= static_cast<std::uint8_t>(1u << std::min(i, 7));
          auto row = source_row(o);
          if (!row) return row.error();
          rows.push_back(*row);
        }
        t.rows.push_back(std::move(rows));
      }
      op.tensor = static_cast<std::uint32_t>(p_.tensor_operands.size());
      p_.tensor_operands.push_back(std::move(t));
      op.reads_clock = reads_clock;
      return op;
    }
    // [reg + imm] or [symbol + imm]: the address row, the offset, and the shared region.
    auto address = [&](const ptx::Operand& o, OperandRow& out) -> Status {
      out.row = o.reg[0] == ptx::kNoReg ? p_.zero_row : base + o.reg[0];
      out.offset = o.imm;
      out.address = true;
      if (o.symbol >= 0) {
        auto a = symbol_address(o.symbol);
        if (!a) return a.error();
        out.offset += static_cast<std::int64_t>(*a);
        const ptx::Variable& v = m_.variables[static_cast<std::size_t>(o.symbol)];
        if (is_local_symbol(o.symbol)) {
          if (op.space == Space::Param) op.space = Space::Local;
          if (op.space == Space::None) out.offset += static_cast<std::int64_t>(kLocalWindow);
        } else if (v.space == Space::Shared) {
          if (op.space == Space::None) out.offset += static_cast<std::int64_t>(kSharedWindow);
          auto r = region_.find(o.symbol);
          if (r != region_.end()) out.region = r->second;
        }
      }
      return Ok{};
    };
    int i = 0;
    if (inst.opcode == Opcode::Setp || inst.opcode == Opcode::Shfl || inst.opcode == Opcode::Match ||
        inst.opcode == Opcode::Elect) {
      op.dst[0] = reg_row(inst.op(0).reg[0]);
      op.dst[1] = inst.op(1).kind == OperandKind::Reg ? reg_row(inst.op(1).reg[0]) : kNoRow;
      op.ndst = 2;
      i = 2;
    } else if (ptx::writes_first_operand(inst.opcode) && inst.num_operands > 0) {
      const ptx::Operand& d = inst.op(0);
      if (d.kind == OperandKind::Reg) {
        op.dst[0] = reg_row(d.reg[0]);
        op.ndst = 1;
      } else if (d.kind == OperandKind::Vec) {
        if (d.count > 8) return make_error("a vector of " + std::to_string(d.count) + " registers in '" + inst.text + "' at " + m_.describe(inst));
        for (int k = 0; k < d.count; ++k) op.dst[static_cast<std::size_t>(k)] = reg_row(inst.vec_reg(d, k));
        op.ndst = d.count;
      } else {
        return make_error("expected a destination register in '" + inst.text + "' at " + m_.describe(inst));
      }
      i = 1;
    }
    // .L2::cache_hint's last operand is a cache policy: it steers L2, never an address.
    const int operands = inst.num_operands - (inst.has(ptx::flag::CacheHint) && inst.num_operands > i ? 1 : 0);
    // cp.async's fourth operand is src-size, or ignore-src when it is a predicate.
    if (inst.opcode == Opcode::CpAsync) op.cp_async_bypass = inst.text.find(".cg") != std::string::npos;
    if (inst.opcode == Opcode::CpAsync && operands > 3) {
      const ptx::Operand& o = inst.op(3);
      op.cp_async_ignore_src = o.kind == OperandKind::Reg && o.reg[0] < fn.registers.size() &&
                               fn.registers[o.reg[0]].type == Type::Pred;
    }
    if (op.family == ptx::Family::Async) {
      // Every operand in order, vector elements one by one (see Program::operand_rows).
      op.operands = static_cast<std::uint32_t>(p_.operand_rows.size());
      for (int k = 0; k < inst.num_operands; ++k) {
        const ptx::Operand& o = inst.op(k);
        if (o.kind == OperandKind::Addr) {
          OperandRow r;
          if (auto s = address(o, r); !s) return s.error();
          p_.operand_rows.push_back(r);
        } else if (o.kind == OperandKind::Vec) {
          for (int e = 0; e < o.count; ++e) {
            OperandRow r;
            if (e < 4 && ((o.vec_imm_mask >> e) & 1u)) {
              r.row = constant_row(static_cast<std::uint64_t>(o.vec_imm[static_cast<std::size_t>(e)]));
            } else {
              r.row = reg_row(inst.vec_reg(o, e));
            }
            p_.operand_rows.push_back(r);
          }
        } else if (o.kind == OperandKind::Reg && (k == 0 || (k == 1 && op.ndst == 2))) {
          p_.operand_rows.push_back(OperandRow{reg_row(o.reg[0]), 0, -1, false});  // a destination
        } else if (o.kind == OperandKind::None) {
          p_.operand_rows.push_back(OperandRow{p_.discard_row, 0, -1, false});  // elect's absent `|p`
        } else {
          auto row = source_row(o);
          if (!row) return row.error();
          p_.operand_rows.push_back(OperandRow{*row, 0, -1, false});
        }
      }
      op.noperands = static_cast<std::uint8_t>(p_.operand_rows.size() - op.operands);
      op.reads_clock = reads_clock;
      return op;
    }
    for (; i < operands; ++i) {
      const ptx::Operand& o = inst.op(i);
      if (o.kind == OperandKind::Addr) {
        OperandRow a;
        if (auto s = address(o, a); !s) return s.error();
        std::uint32_t row = a.row;
        std::int64_t off = a.offset;
        if (a.region >= 0) op.region = a.region;
        if (op.addr == kNoRow) {
          op.addr = row;
          op.offset = off;
        } else {
          op.addr2 = row;
          op.offset2 = off;
        }
      } else if (o.kind == OperandKind::Vec) {
        if (o.count > 8 || op.nsrc + o.count > 8)
          return make_error("a vector of " + std::to_string(o.count) + " registers in '" + inst.text + "' at " + m_.describe(inst));
        for (int k = 0; k < o.count; ++k) {
          if (k < 4 && ((o.vec_imm_mask >> k) & 1u)) {
            ptx::Operand element;
            element.imm = o.vec_imm[static_cast<std::size_t>(k)];
            element.imm_type = o.vec_imm_type[static_cast<std::size_t>(k)];
            op.src[op.nsrc++] = constant_row(normalize_immediate(element, imm_target));
          } else {
            op.src[op.nsrc++] = reg_row(inst.vec_reg(o, k));
          }
        }
      } else if (o.kind == OperandKind::Label) {
        op.target = entry_[f] + static_cast<std::uint32_t>(o.imm);
      } else if (o.kind == OperandKind::Func) {
        op.target = static_cast<std::uint32_t>(p_.calls.size());
        auto link = call_link(fn.calls[static_cast<std::size_t>(o.imm)]);
        if (!link) return link.error();
        p_.calls.push_back(std::move(*link));
      } else {
        if (op.nsrc >= 8) return make_error("too many source operands in '" + inst.text + "' at " + m_.describe(inst));
        if (o.negated) op.negated_src |= static_cast<std::uint8_t>(1u << op.nsrc);
        auto row = source_row(o);
        if (!row) return row.error();
        op.src[op.nsrc++] = *row;
      }
    }
    op.reads_clock = reads_clock;
    op.polls = polls_memory(inst) || reads_clock;
    return op;
  }

  Expected<CallLink> call_link(const ptx::CallSite& site) {
    CallLink link;
    const ptx::Function& callee = m_.functions[static_cast<std::size_t>(site.callee)];
    link.entry = entry_[site.callee];
    link.callee = callee.name;
    if (callee.is_declaration) {
      link.external = true;
      // The arguments stay in the caller's params (__assertfail's message, file and line).
      for (int a : site.arguments) {
        auto at = symbol_address(a);
        if (!at) return at.error();
        link.arguments.push_back({static_cast<std::uint32_t>(*at), 0,
                                  static_cast<std::uint32_t>(m_.variables[static_cast<std::size_t>(a)].size)});
      }
      // The caller's return values read as zero.
      for (int r : site.returns) {
        auto a = symbol_address(r);
        if (!a) return a.error();
        link.returns.push_back({0, static_cast<std::uint32_t>(*a),
                                static_cast<std::uint32_t>(m_.variables[static_cast<std::size_t>(r)].size)});
      }
      return link;
    }
    auto copies = [&](const std::vector<int>& from, const std::vector<int>& to, std::vector<CallLink::Copy>& out) -> Status {
      if (from.size() != to.size())
        return make_error("call to '" + callee.name + "' passes " + std::to_string(from.size()) +
                          " values for " + std::to_string(to.size()) + " parameters");
      for (std::size_t k = 0; k < from.size(); ++k) {
        auto a = symbol_address(from[k]);
        auto b = symbol_address(to[k]);
        if (!a) return a.error();
        if (!b) return b.error();
        auto size = std::min(m_.variables[static_cast<std::size_t>(from[k])].size,
                             m_.variables[static_cast<std::size_t>(to[k])].size);
        out.push_back({static_cast<std::uint32_t>(*a), static_cast<std::uint32_t>(*b), static_cast<std::uint32_t>(size)});
      }
      return Ok{};
    };
    if (auto s = copies(site.arguments, callee.params, link.arguments); !s) return s.error();
    if (auto s = copies(callee.returns, site.returns, link.returns); !s) return s.error();
    return link;
  }

 public:
  // Constant rows got provisional numbers (high bit set): renumber after the sreg rows.
  static void renumber(Program& p) {
    auto fix = [&](std::uint32_t& r) {
      if (r != kNoRow && (r & 0x80000000u)) r = p.first_constant_row + (r & 0x7fffffffu);
    };
    for (Op& op : p.code) {
      fix(op.guard);
      for (auto& r : op.src) fix(r);
      for (auto& r : op.dst) fix(r);
      fix(op.addr);
      fix(op.addr2);
    }
    for (TensorOperands& t : p.tensor_operands)
      for (auto& list : t.rows)
        for (auto& r : list) fix(r);
    for (OperandRow& r : p.operand_rows) fix(r.row);
  }

 private:
  const ptx::Module& m_;
  GlobalMemory& memory_;
  Program p_;
  std::vector<int> order_;
  std::unordered_map<int, std::uint32_t> reg_base_;
  std::unordered_map<int, std::uint32_t> entry_;
  std::unordered_map<int, std::uint64_t> addr_;
  std::unordered_map<int, int> region_;
  std::vector<int> kernel_param_;
  std::vector<int> local_;
  std::vector<int> dynamic_;
  std::unordered_map<std::uint64_t, std::uint32_t> const_rows_;
  std::uint32_t next_row_ = 0;
};

}  // namespace

Expected<Program> link(const ptx::Module& module, int kernel, GlobalMemory& memory) {
  if (kernel < 0 || static_cast<std::size_t>(kernel) >= module.functions.size())
    return make_error("no such kernel index " + std::to_string(kernel));
  Linker linker(module, kernel, memory);
  auto p = linker.run();
  if (!p) return p;
  Linker::renumber(*p);
  static std::atomic<std::uint64_t> next_id{1};
  p->id = next_id.fetch_add(1);
  return p;
}

Expected<int> find_kernel(const ptx::Module& module, std::string_view name) {
  std::vector<std::string> entries;
  std::vector<int> index;
  for (std::size_t i = 0; i < module.functions.size(); ++i) {
    if (!module.functions[i].is_entry) continue;
    entries.push_back(module.functions[i].name);
    index.push_back(static_cast<int>(i));
  }
  auto list = [](const std::vector<std::string>& names) {
    std::string out;
    for (const std::string& n : names) out += (out.empty() ? "" : ", ") + kernel_display_name(n);
    return out.empty() ? std::string("(none)") : out;
  };
  if (name.empty()) {
    if (entries.size() == 1) return index[0];
    return make_error("the file has " + std::to_string(entries.size()) + " kernels: name one with --kernel: " +
                      list(entries));
  }
  const std::vector<std::size_t> found = find_kernel_names(name, entries);
  if (found.size() == 1) return index[found[0]];
  if (found.empty()) return make_error("no kernel named '" + std::string(name) + "'; kernels: " + list(entries));
  std::vector<std::string> candidates;
  for (std::size_t i : found) candidates.push_back(entries[i]);
  return make_error("kernel name '" + std::string(name) + "' is ambiguous: " + list(candidates));
}

}  // namespace warpscope::emu
