// instruction_parser.cc: one PTX instruction -> a pre-decoded ptx::Instruction.
//
//   @!%p3 ld.global.nc.v2.f32 {%f1, %f2}, [%rd4+8];
//   guard=%p3 (negated), opcode=Ld, space=Global, flags=NonCoherent, vec=2, type=F32,
//   operands={Vec{%f1,%f2}, Addr{%rd4, +8}}
#include <algorithm>
#include <unordered_map>

#include "ptx/async_variant.h"
#include "ptx/parser_impl.h"

namespace warpscope::ptx::detail {
namespace {

enum class ModKind : std::uint8_t { Type, Space, Vec, Cmp, Round, SubOp, Flag, Ignore };

struct Modifier {
  ModKind kind;
  std::uint32_t value;
};

// Every modifier the decoder understands. Cache and memory-order hints are accepted and
// ignored: they change timing, never values or addresses. Anything else makes the
// instruction Unsupported.
const std::unordered_map<std::string_view, Modifier>& modifier_table() {
  static const auto* table = new std::unordered_map<std::string_view, Modifier>{
      {"pred", {ModKind::Type, unsigned(Type::Pred)}},  {"b8", {ModKind::Type, unsigned(Type::B8)}},
      {"b16", {ModKind::Type, unsigned(Type::B16)}},    {"b32", {ModKind::Type, unsigned(Type::B32)}},
      {"b64", {ModKind::Type, unsigned(Type::B64)}},    {"b128", {ModKind::Type, unsigned(Type::B128)}},
      {"u8", {ModKind::Type, unsigned(Type::U8)}},      {"u16", {ModKind::Type, unsigned(Type::U16)}},
      {"u32", {ModKind::Type, unsigned(Type::U32)}},    {"u64", {ModKind::Type, unsigned(Type::U64)}},
      {"s8", {ModKind::Type, unsigned(Type::S8)}},      {"s16", {ModKind::Type, unsigned(Type::S16)}},
      {"s32", {ModKind::Type, unsigned(Type::S32)}},    {"s64", {ModKind::Type, unsigned(Type::S64)}},
      {"f16", {ModKind::Type, unsigned(Type::F16)}},    {"f16x2", {ModKind::Type, unsigned(Type::F16x2)}},
      {"bf16", {ModKind::Type, unsigned(Type::BF16)}},  {"bf16x2", {ModKind::Type, unsigned(Type::BF16x2)}},
      {"e4m3x2", {ModKind::Type, unsigned(Type::E4M3x2)}}, {"e5m2x2", {ModKind::Type, unsigned(Type::E5M2x2)}},
      {"tf32", {ModKind::Type, unsigned(Type::TF32)}},  {"f32", {ModKind::Type, unsigned(Type::F32)}},
      {"f64", {ModKind::Type, unsigned(Type::F64)}},
      {"global", {ModKind::Space, unsigned(Space::Global)}}, {"shared", {ModKind::Space, unsigned(Space::Shared)}},
      {"shared::cta", {ModKind::Space, unsigned(Space::Shared)}}, {"local", {ModKind::Space, unsigned(Space::Local)}},
      {"const", {ModKind::Space, unsigned(Space::Const)}},   {"param", {ModKind::Space, unsigned(Space::Param)}},
      {"v2", {ModKind::Vec, 2}}, {"v4", {ModKind::Vec, 4}}, {"x1", {ModKind::Vec, 1}}, {"x2", {ModKind::Vec, 2}},
      {"x4", {ModKind::Vec, 4}}, {"v8", {ModKind::Vec, 8}},
      {"eq", {ModKind::Cmp, unsigned(Cmp::Eq)}},   {"ne", {ModKind::Cmp, unsigned(Cmp::Ne)}},
      {"lt", {ModKind::Cmp, unsigned(Cmp::Lt)}},   {"le", {ModKind::Cmp, unsigned(Cmp::Le)}},
      {"gt", {ModKind::Cmp, unsigned(Cmp::Gt)}},   {"ge", {ModKind::Cmp, unsigned(Cmp::Ge)}},
      {"lo", {ModKind::Flag, flag::Lo}},           {"ls", {ModKind::Cmp, unsigned(Cmp::Ls)}},
      {"hi", {ModKind::Flag, flag::Hi}},           {"hs", {ModKind::Cmp, unsigned(Cmp::Hs)}},
      {"equ", {ModKind::Cmp, unsigned(Cmp::Equ)}}, {"neu", {ModKind::Cmp, unsigned(Cmp::Neu)}},
      {"ltu", {ModKind::Cmp, unsigned(Cmp::Ltu)}}, {"leu", {ModKind::Cmp, unsigned(Cmp::Leu)}},
      {"gtu", {ModKind::Cmp, unsigned(Cmp::Gtu)}}, {"geu", {ModKind::Cmp, unsigned(Cmp::Geu)}},
      {"num", {ModKind::Cmp, unsigned(Cmp::Num)}}, {"nan", {ModKind::Cmp, unsigned(Cmp::Nan)}},
      {"rn", {ModKind::Round, unsigned(Rounding::Rn)}},   {"rz", {ModKind::Round, unsigned(Rounding::Rz)}},
      {"rm", {ModKind::Round, unsigned(Rounding::Rm)}},   {"rp", {ModKind::Round, unsigned(Rounding::Rp)}},
      {"rna", {ModKind::Round, unsigned(Rounding::Rna)}}, {"rni", {ModKind::Round, unsigned(Rounding::Rni)}},
      {"rzi", {ModKind::Round, unsigned(Rounding::Rzi)}}, {"rmi", {ModKind::Round, unsigned(Rounding::Rmi)}},
      {"rpi", {ModKind::Round, unsigned(Rounding::Rpi)}},
      {"add", {ModKind::SubOp, unsigned(SubOp::Add)}},   {"min", {ModKind::SubOp, unsigned(SubOp::Min)}},
      {"max", {ModKind::SubOp, unsigned(SubOp::Max)}},   {"inc", {ModKind::SubOp, unsigned(SubOp::Inc)}},
      {"dec", {ModKind::SubOp, unsigned(SubOp::Dec)}},   {"and", {ModKind::SubOp, unsigned(SubOp::And)}},
      {"or", {ModKind::SubOp, unsigned(SubOp::Or)}},     {"xor", {ModKind::SubOp, unsigned(SubOp::Xor)}},
      {"exch", {ModKind::SubOp, unsigned(SubOp::Exch)}}, {"cas", {ModKind::SubOp, unsigned(SubOp::Cas)}},
      {"up", {ModKind::SubOp, unsigned(SubOp::Up)}},     {"down", {ModKind::SubOp, unsigned(SubOp::Down)}},
      {"bfly", {ModKind::SubOp, unsigned(SubOp::Bfly)}}, {"idx", {ModKind::SubOp, unsigned(SubOp::Idx)}},
      {"all", {ModKind::SubOp, unsigned(SubOp::All)}},   {"any", {ModKind::SubOp, unsigned(SubOp::Any)}},
      {"ballot", {ModKind::SubOp, unsigned(SubOp::Ballot)}}, {"popc", {ModKind::SubOp, unsigned(SubOp::Popc)}},
      {"wide", {ModKind::Flag, flag::Wide}},   {"sat", {ModKind::Flag, flag::Sat}},
      {"satfinite", {ModKind::Flag, flag::SatFinite}},     {"ftz", {ModKind::Flag, flag::Ftz}},
      {"approx", {ModKind::Flag, flag::Approx}}, {"full", {ModKind::Flag, flag::Full}},
      {"uni", {ModKind::Flag, flag::Uni}},     {"volatile", {ModKind::Flag, flag::Volatile}},
      {"nc", {ModKind::Flag, flag::NonCoherent}}, {"trans", {ModKind::Flag, flag::Trans}},
      {"to", {ModKind::Flag, flag::To}},       {"l", {ModKind::Flag, flag::Left}},
      {"r", {ModKind::Flag, flag::Right}},     {"clamp", {ModKind::Flag, flag::Clamp}},
      {"wrap", {ModKind::Flag, flag::Wrap}},   {"shiftamt", {ModKind::Flag, flag::Shiftamt}},
      {"NaN", {ModKind::Flag, flag::NaN}},       {"cc", {ModKind::Flag, flag::CarryOut}},     {"relu", {ModKind::Flag, flag::Relu}},
      {"sync", {ModKind::Ignore, 0}},          {"aligned", {ModKind::Ignore, 0}},
      {"m8n8", {ModKind::Ignore, 0}},          {"ca", {ModKind::Ignore, 0}},
      {"cg", {ModKind::Ignore, 0}},            {"cs", {ModKind::Ignore, 0}},
      {"lu", {ModKind::Ignore, 0}},            {"cv", {ModKind::Ignore, 0}},
      {"wb", {ModKind::Ignore, 0}},            {"wt", {ModKind::Ignore, 0}},
      {"relaxed", {ModKind::Ignore, 0}},       {"acquire", {ModKind::Ignore, 0}},
      {"release", {ModKind::Ignore, 0}},       {"acq_rel", {ModKind::Ignore, 0}},
      {"sc", {ModKind::Ignore, 0}},            {"weak", {ModKind::Ignore, 0}},
      {"mmio", {ModKind::Ignore, 0}},          {"cta", {ModKind::Ignore, 0}},
      {"gpu", {ModKind::Ignore, 0}},           {"sys", {ModKind::Ignore, 0}},
      {"cluster", {ModKind::Ignore, 0}},  // atom/red scope: one CTA per cluster here
      {"gl", {ModKind::Ignore, 0}},            {"L1::evict_normal", {ModKind::Ignore, 0}},
      {"L1::evict_last", {ModKind::Ignore, 0}}, {"L1::evict_first", {ModKind::Ignore, 0}},
      {"L1::evict_unchanged", {ModKind::Ignore, 0}}, {"L1::no_allocate", {ModKind::Ignore, 0}},
      {"L2::evict_normal", {ModKind::Ignore, 0}}, {"L2::evict_last", {ModKind::Ignore, 0}},
      {"L2::evict_first", {ModKind::Ignore, 0}}, {"L2::64B", {ModKind::Ignore, 0}},
      {"L2::evict_unchanged", {ModKind::Ignore, 0}}, {"L2::cache_hint", {ModKind::Flag, flag::CacheHint}},
      {"fractional", {ModKind::Ignore, 0}},    {"range", {ModKind::Ignore, 0}},  // createpolicy
      {"cvt", {ModKind::Ignore, 0}},
      {"L2::128B", {ModKind::Ignore, 0}},      {"L2::256B", {ModKind::Ignore, 0}},
      {"f4e", {ModKind::SubOp, unsigned(SubOp::F4e)}}, {"b4e", {ModKind::SubOp, unsigned(SubOp::B4e)}},
      {"rc8", {ModKind::SubOp, unsigned(SubOp::Rc8)}},  {"ecl", {ModKind::SubOp, unsigned(SubOp::Ecl)}},
      {"ecr", {ModKind::SubOp, unsigned(SubOp::Ecr)}},  {"rc16", {ModKind::SubOp, unsigned(SubOp::Rc16)}},           {"L1", {ModKind::Ignore, 0}},
      {"L2", {ModKind::Ignore, 0}},            {"proxy", {ModKind::Ignore, 0}},
      {"async", {ModKind::Ignore, 0}},         {"noftz", {ModKind::Ignore, 0}},
      {"finite", {ModKind::SubOp, unsigned(SubOp::Finite)}}, {"infinite", {ModKind::SubOp, unsigned(SubOp::Infinite)}},
      {"number", {ModKind::SubOp, unsigned(SubOp::Number)}}, {"notanumber", {ModKind::SubOp, unsigned(SubOp::NotANumber)}},
      {"normal", {ModKind::SubOp, unsigned(SubOp::Normal)}}, {"subnormal", {ModKind::SubOp, unsigned(SubOp::Subnormal)}},
  };
  return *table;
}

}  // namespace

bool Parser::apply_modifier(Instruction& inst, std::string_view mod) {
  const auto& table = modifier_table();
  auto it = table.find(mod);
  if (it == table.end()) return false;
  const Modifier m = it->second;
  // .v8 exists on sm_90 only for atom/red of f16/bf16 (eight halves in 16 bytes).
  if (m.kind == ModKind::Vec && m.value == 8 && inst.opcode != Opcode::Atom && inst.opcode != Opcode::Red)
    return false;
  switch (m.kind) {
    case ModKind::Type:
      // Two types: cvt.f32.s32 (destination first), set.eq.u32.f32, cvt.rn.f16x2.f32.
      if (inst.type == Type::None) {
        inst.type = static_cast<Type>(m.value);
      } else {
        inst.type2 = static_cast<Type>(m.value);
      }
      break;
    case ModKind::Space:
      if (inst.space == Space::None) {
        inst.space = static_cast<Space>(m.value);
      } else {
        inst.space2 = static_cast<Space>(m.value);
      }
      break;
    case ModKind::Vec: inst.vec = static_cast<std::uint8_t>(m.value); break;
    case ModKind::Cmp: inst.cmp = static_cast<Cmp>(m.value); break;
    case ModKind::Round: inst.rounding = static_cast<Rounding>(m.value); break;
    case ModKind::SubOp:
      // setp.lt.and.s32: the combiner; atom.and: the op. Either way one field.
      inst.subop = static_cast<SubOp>(m.value);
      break;
    case ModKind::Flag: inst.flags |= m.value; break;
    case ModKind::Ignore: break;
  }
  return true;
}

std::uint32_t Parser::register_index(const Token& t) const {
  for (auto it = register_scopes_.rbegin(); it != register_scopes_.rend(); ++it) {
    auto found = it->find(std::string(t.text));
    if (found != it->end()) return found->second;
  }
  return kNoReg;
}

int Parser::symbol_index(std::string_view name) const {
  std::string key(name);
  for (auto it = symbol_scopes_.rbegin(); it != symbol_scopes_.rend(); ++it) {
    auto found = it->find(key);
    if (found != it->end()) return found->second;
  }
  auto found = module_symbols_.find(key);
  return found == module_symbols_.end() ? -1 : found->second;
}

void Parser::instruction(Function& f, int function_index) {
  const std::size_t start = pos_;
  const std::size_t label_refs = label_refs_.size();
  try {
    decode_instruction(f, function_index);
  } catch (UnknownConstruct& u) {
    // Forget what the statement recorded, and keep it as an instruction that fails when run.
    label_refs_.resize(label_refs);
    unsupported_statement(f, start, u.error.message);
  }
}

void Parser::unsupported_statement(Function& f, std::size_t start, std::string reason) {
  pos_ = start;
  Instruction inst;
  if (accept('@')) {
    inst.guard_negated = accept('!');
    if (peek().kind == TokenKind::Ident) {
      inst.guard = register_index(peek());
      next();
    }
  }
  const Token& head = next();
  inst.text = std::string(head.text);
  while (peek().kind == TokenKind::Dot && peek().glued) inst.text += next().text;
  inst.ptx_line = head.line;
  inst.debug = loc_;
  inst.opcode = Opcode::Unsupported;
  inst.unsupported_reason = std::move(reason);
  skip_statement();
  f.body.push_back(std::move(inst));
}

void Parser::decode_instruction(Function& f, int function_index) {
  (void)function_index;
  Instruction inst;
  if (accept('@')) {
    inst.guard_negated = accept('!');
    const Token& p = peek();
    if (p.kind != TokenKind::Ident) fail(p, "expected a predicate register after '@'");
    inst.guard = register_index(p);
    if (inst.guard == kNoReg) unknown(p, "unknown register '" + std::string(p.text) + "'");
    next();
  }
  const Token& head = peek();
  if (head.kind != TokenKind::Ident) fail(head, "expected an instruction, got '" + std::string(head.text) + "'");
  next();
  inst.text = std::string(head.text);
  while (peek().kind == TokenKind::Dot && peek().glued) inst.text += next().text;
  inst.ptx_line = head.line;
  inst.debug = loc_;
  auto found = find_opcode(inst.text);
  bool supported = found.has_value();
  if (supported) {
    inst.opcode = found->first;
    // Apply the remaining dot-separated parts as modifiers.
    std::string_view rest = inst.text;
    for (int i = 0; i < found->second; ++i) {
      auto dot = rest.find('.');
      rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
    const bool tensor = family_of(inst.opcode) == Family::Tensor;
    while (!rest.empty() && supported) {
      auto dot = rest.find('.');
      std::string_view mod = rest.substr(0, dot);
      supported = (tensor && apply_tensor_modifier(inst.tensor, mod)) || apply_modifier(inst, mod) ||
                  async::apply_async_modifier(inst, mod);
      if (!supported) inst.unsupported_reason = "the modifier '." + std::string(mod) + "' is not known";
      rest = dot == std::string_view::npos ? std::string_view() : rest.substr(dot + 1);
    }
  }
  // ".proxy.async" only qualifies a fence; st.async, red.async (cluster memory) are not emulated.
  if (supported && inst.opcode != Opcode::Fence && family_of(inst.opcode) != Family::Async &&
      (inst.text.find(".async") != std::string::npos || inst.text.find(".proxy") != std::string::npos) &&
      inst.opcode != Opcode::CpAsync && inst.opcode != Opcode::CpAsyncCommit && inst.opcode != Opcode::CpAsyncWait &&
      inst.opcode != Opcode::CpAsyncWaitAll && inst.opcode != Opcode::CpAsyncBulkCommit &&
      inst.opcode != Opcode::CpAsyncBulkWait) {
    supported = false;
    inst.unsupported_reason = "the asynchronous-proxy form is not emulated";
  }
  if (!supported) {
    inst.opcode = Opcode::Unsupported;
    skip_statement();
    f.body.push_back(std::move(inst));
    return;
  }
  // setp.lo/hi: unsigned comparisons spelled like mul's .lo/.hi.
  if (inst.opcode == Opcode::Setp || inst.opcode == Opcode::Set || inst.opcode == Opcode::Slct) {
    if (inst.has(flag::Lo)) inst.cmp = Cmp::Lo;
    if (inst.has(flag::Hi)) inst.cmp = Cmp::Hi;
    inst.flags &= ~(flag::Lo | flag::Hi);
  }
  if (inst.opcode == Opcode::AddCC || inst.opcode == Opcode::SubCC || inst.opcode == Opcode::MadCC) {
    inst.flags |= flag::CarryOut;
    inst.opcode = inst.opcode == Opcode::AddCC ? Opcode::Add : inst.opcode == Opcode::SubCC ? Opcode::Sub : Opcode::Mad;
  }
  // "bar" alone means bar.sync.
  if (inst.opcode == Opcode::Bar) inst.opcode = Opcode::BarSync;
  if (inst.opcode == Opcode::Call) {
    call_operands(f, inst);
  } else if (!peek().is(';')) {
    bool pair_slot = inst.opcode == Opcode::Setp || inst.opcode == Opcode::Shfl || inst.opcode == Opcode::Match ||
                     inst.opcode == Opcode::Elect;
    for (;;) {
      if (inst.num_operands >= kMaxOperands) unknown(peek(), "more than " + std::to_string(kMaxOperands) + " operands");
      Operand o = operand(f, inst);
      inst.operands[inst.num_operands++] = o;
      // A tensor address's coordinates follow it as vector operands.
      for (const Operand& c : tensor_coordinates_) {
        if (inst.num_operands >= kMaxOperands) fail(peek(), "too many operands");
        inst.operands[inst.num_operands++] = c;
      }
      tensor_coordinates_.clear();
      if (inst.num_operands == 1 && pair_slot) {
        // "%p1|%p2" or "%r1|%p1": the second destination goes in slot 1 (None if absent).
        Operand second;
        if (accept('|')) second = operand(f, inst);
        inst.operands[inst.num_operands++] = second;
      }
      if (!accept(',')) break;
    }
  }
  expect(';', "at the end of the instruction");
  // Bra and friends name labels: remember where to patch.
  f.body.push_back(std::move(inst));
}

Operand Parser::address_operand() {
  Operand o;
  o.kind = OperandKind::Addr;
  const Token& t = peek();
  if (t.kind == TokenKind::Ident) {
    next();
    std::uint32_t r = register_index(t);
    if (r != kNoReg) {
      o.reg[0] = r;
    } else {
      o.symbol = symbol_index(t.text);
      if (o.symbol < 0) unknown(t, "unknown symbol '" + std::string(t.text) + "' in the address");
    }
    if (accept('+')) {
      o.imm = expect_integer("an offset");
    } else if (peek().is('-')) {
      o.imm = expect_integer("an offset");
    }
  } else {
    o.imm = expect_integer("an address");
  }
  return o;
}

Operand Parser::operand(Function& f, Instruction& inst) {
  Operand o;
  const Token& t = peek();
  if (accept('[')) {
    Operand a = address_operand();
    if (accept(',')) tensor_coordinates_ = coordinate_vectors(f, inst);  // [tensorMap, {c0, c1, ...}]
    expect(']', "to close the address");
    return a;
  }
  if (accept('{')) {
    o.kind = OperandKind::Vec;
    // Up to 4 elements (registers or numbers) in reg[]/vec_imm; longer vectors (mma and
    // wgmma fragments) hold registers only, in inst.wide_regs.
    std::vector<std::uint32_t> regs;
    for (;;) {
      const Token& e = peek();
      if (regs.size() >= 255) unknown(e, "a vector operand of more than 255 elements");
      if (e.kind == TokenKind::Integer || e.kind == TokenKind::Float || e.is('-')) {
        if (regs.size() >= 4) unknown(e, "a number in a vector operand of more than 4 elements");
        Operand value = operand(f, inst);
        if (value.kind != OperandKind::Imm) unknown(e, "a vector element that is not a register or a number");
        o.vec_imm_mask = static_cast<std::uint8_t>(o.vec_imm_mask | (1u << regs.size()));
        o.vec_imm[regs.size()] = value.imm;
        o.vec_imm_type[regs.size()] = value.imm_type;
        regs.push_back(kNoReg);
      } else {
        if (e.kind != TokenKind::Ident) fail(e, "expected a register in the vector operand");
        next();
        std::uint32_t r = e.text == "_" ? kNoReg : register_index(e);
        if (r == kNoReg && e.text != "_") unknown(e, "unknown register '" + std::string(e.text) + "'");
        if (regs.size() >= 4 && o.vec_imm_mask != 0) unknown(e, "a number in a vector operand of more than 4 elements");
        regs.push_back(r);
      }
      if (accept('}')) break;
      expect(',', "between vector elements");
    }
    o.count = static_cast<std::uint8_t>(regs.size());
    if (regs.size() <= 4) {
      std::copy(regs.begin(), regs.end(), o.reg.begin());
    } else {
      o.imm = static_cast<std::int64_t>(inst.wide_regs.size());
      inst.wide_regs.insert(inst.wide_regs.end(), regs.begin(), regs.end());
    }
    return o;
  }
  if (accept('!')) {
    o = operand(f, inst);
    if (o.kind != OperandKind::Reg) fail(t, "'!' applies to a predicate register only");
    o.negated = true;
    return o;
  }
  bool negative = false;
  if (t.is('-')) {
    next();
    negative = true;
  }
  const Token& v = peek();
  if (v.kind == TokenKind::Integer || v.kind == TokenKind::Float) {
    next();
    o.kind = OperandKind::Imm;
    o.imm = static_cast<std::int64_t>(v.bits);
    if (v.kind == TokenKind::Float) {
      o.imm_type = v.is_f32 ? Type::F32 : Type::F64;
      if (negative) o.imm ^= static_cast<std::int64_t>(v.is_f32 ? 0x80000000ull : 0x8000000000000000ull);
    } else if (negative) {
      o.imm = -o.imm;
    }
    return o;
  }
  if (negative) fail(v, "expected a number after '-'");
  if (v.kind != TokenKind::Ident) fail(v, "expected an operand, got '" + std::string(v.text) + "'");
  next();
  std::uint32_t r = register_index(v);
  if (r != kNoReg) {
    o.kind = OperandKind::Reg;
    o.reg[0] = r;
    return o;
  }
  if (v.text[0] == '%') {
    auto sreg = find_sreg(v.text);
    if (!sreg) unknown(v, "unknown register '" + std::string(v.text) + "'");
    o.kind = OperandKind::Sreg;
    o.sreg = sreg->first;
    o.component = sreg->second;
    if (sreg_shape(o.sreg) == SregShape::Vector && peek().kind == TokenKind::Dot && peek().glued) {
      const Token& c = next();
      if (c.text != ".x" && c.text != ".y" && c.text != ".z" && c.text != ".w")
        unknown(c, "unknown component '" + std::string(c.text) + "' of " + std::string(v.text));
      o.component = c.text == ".x" ? 0 : c.text == ".y" ? 1 : c.text == ".z" ? 2 : 3;
    }
    return o;
  }
  if (v.text == "_") {  // the sink: a destination nobody reads (mbarrier.arrive _, [bar])
    o.kind = OperandKind::Reg;
    o.reg[0] = kNoReg;
    return o;
  }
  if (v.text == "WARP_SZ") {  // the PTX ISA's predefined constant: what warpSize compiles to
    o.kind = OperandKind::Imm;
    o.imm = 32;
    return o;
  }
  if (inst.opcode == Opcode::Bra) {
    o.kind = OperandKind::Label;
    label_refs_.push_back({static_cast<int>(f.body.size()), inst.num_operands, v, block_});
    return o;
  }
  o.symbol = symbol_index(v.text);
  if (o.symbol < 0) {
    auto function = function_index_.find(std::string(v.text));
    if (function == function_index_.end()) unknown(v, "unknown symbol '" + std::string(v.text) + "'");
    o.kind = OperandKind::FunctionAddress;
    o.imm = function->second;
    return o;
  }
  o.kind = OperandKind::Symbol;
  if (accept('+')) o.imm = expect_integer("an offset");
  return o;
}

// call[.uni] [(ret, ...),] func [, (arg, ...)];
void Parser::call_operands(Function& f, Instruction& inst) {
  CallSite site;
  auto param_list = [&](std::vector<int>& out) {
    expect('(', "to open the call's parameter list");
    if (accept(')')) return;
    for (;;) {
      const Token& p = peek();
      if (p.kind != TokenKind::Ident) fail(p, "expected a parameter name");
      next();
      int id = symbol_index(p.text);
      if (id < 0) unknown(p, "unknown parameter '" + std::string(p.text) + "'");
      out.push_back(id);
      if (accept(')')) return;
      expect(',', "between call parameters");
    }
  };
  if (peek().is('(')) {
    param_list(site.returns);
    expect(',', "after the call's return list");
  }
  const Token& callee = peek();
  if (callee.kind != TokenKind::Ident) fail(callee, "expected the called function's name");
  next();
  if (register_index(callee) != kNoReg) {
    // An indirect call through a register: not supported when run.
    inst.opcode = Opcode::Unsupported;
    inst.unsupported_reason = "an indirect call (through a register) is not emulated";
    skip_to_semicolon();
    pos_ -= 1;  // leave the ';' for the caller
    return;
  }
  auto it = function_index_.find(std::string(callee.text));
  if (it == function_index_.end()) unknown(callee, "unknown function '" + std::string(callee.text) + "'");
  site.callee = it->second;
  if (accept(',')) {
    param_list(site.arguments);
    if (accept(',')) {
      // A prototype for an indirect call; direct calls do not have one.
      next();
    }
  }
  Operand o;
  o.kind = OperandKind::Func;
  o.imm = static_cast<std::int64_t>(f.calls.size());
  inst.operands[0] = o;
  inst.num_operands = 1;
  f.calls.push_back(std::move(site));
}

void Parser::finish_function(Function& f) {
  for (const auto& ref : label_refs_) {
    // The label of the innermost block around the branch that defines it.
    int target = -1;
    if (auto it = labels_.find(std::string(ref.token.text)); it != labels_.end()) {
      for (int b = ref.block; b >= 0 && target < 0; b = block_parent_[static_cast<std::size_t>(b)])
        for (const auto& [block, index] : it->second)
          if (block == b) target = index;
    }
    if (target < 0) fail(ref.token, "unknown label '" + std::string(ref.token.text) + "'");
    f.body[static_cast<std::size_t>(ref.instruction)].operands[static_cast<std::size_t>(ref.operand)].imm = target;
  }
  // Mark atomics whose result is never read (ptxas turns some into reductions).
  std::vector<std::uint32_t> reads(f.registers.size(), 0);
  auto count = [&](std::uint32_t r) {
    if (r < reads.size()) ++reads[r];
  };
  for (const Instruction& inst : f.body) {
    count(inst.guard);
    int first_source = writes_first_operand(inst.opcode) ? 1 : 0;
    if (inst.opcode == Opcode::Setp || inst.opcode == Opcode::Shfl || inst.opcode == Opcode::Match ||
        inst.opcode == Opcode::Elect)
      first_source = 2;
    for (int i = 0; i < inst.num_operands; ++i) {
      const Operand& o = inst.op(i);
      bool source = i >= first_source || o.kind == OperandKind::Addr;
      if (!source) continue;
      if (o.kind == OperandKind::Reg || o.kind == OperandKind::Addr) count(o.reg[0]);
      if (o.kind == OperandKind::Vec)
        for (int k = 0; k < o.count; ++k) count(inst.vec_reg(o, k));
    }
  }
  for (Instruction& inst : f.body) {
    if (inst.opcode == Opcode::Atom && inst.num_operands > 0 && inst.op(0).kind == OperandKind::Reg &&
        inst.op(0).reg[0] < reads.size() && reads[inst.op(0).reg[0]] == 0)
      inst.flags |= flag::ResultUnused;
  }
}

}  // namespace warpscope::ptx::detail
