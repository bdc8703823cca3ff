// sass_memory.cc: decoding SASS memory instructions.
#include "sass/sass_memory.h"

#include <algorithm>
#include <cctype>

namespace warpscope::sass {

bool is_load(Kind k) { return k == Kind::SharedLoad || k == Kind::GlobalLoad || k == Kind::GenericLoad; }
bool is_store(Kind k) { return k == Kind::SharedStore || k == Kind::GlobalStore || k == Kind::GenericStore; }
bool is_atomic(Kind k) {
  return k == Kind::SharedAtomic || k == Kind::GlobalAtomic || k == Kind::GlobalReduction || k == Kind::GenericAtomic;
}

namespace {

bool has(const std::vector<std::string>& mods, std::string_view m) {
  return std::find(mods.begin(), mods.end(), m) != mods.end();
}

Kind kind_of(std::string_view op) {
  if (op == "LDS") return Kind::SharedLoad;
  if (op == "STS") return Kind::SharedStore;
  if (op == "LDG") return Kind::GlobalLoad;
  if (op == "STG") return Kind::GlobalStore;
  if (op == "LD") return Kind::GenericLoad;
  if (op == "ST") return Kind::GenericStore;
  if (op == "ATOMS") return Kind::SharedAtomic;
  if (op == "ATOMG") return Kind::GlobalAtomic;
  if (op == "RED" || op == "REDG") return Kind::GlobalReduction;
  if (op == "ATOM") return Kind::GenericAtomic;
  return Kind::Other;
}

int load_store_width(const std::vector<std::string>& mods) {
  if (has(mods, "128")) return 16;
  if (has(mods, "64")) return 8;
  if (has(mods, "U16") || has(mods, "S16")) return 2;
  if (has(mods, "U8") || has(mods, "S8")) return 1;
  return 4;
}

AtomicOp atomic_op(const std::vector<std::string>& mods) {
  static const std::pair<std::string_view, AtomicOp> ops[] = {
      {"ADD", AtomicOp::Add},   {"MIN", AtomicOp::Min},   {"MAX", AtomicOp::Max}, {"INC", AtomicOp::Inc},
      {"DEC", AtomicOp::Dec},   {"AND", AtomicOp::And},   {"OR", AtomicOp::Or},   {"XOR", AtomicOp::Xor},
      {"EXCH", AtomicOp::Exch}, {"CAS", AtomicOp::Cas},   {"CAST", AtomicOp::Cast},
  };
  if (has(mods, "POPC") && has(mods, "INC")) return AtomicOp::PopcInc;
  for (const std::string& m : mods)
    for (const auto& [name, op] : ops)
      if (m == name) return op;
  return AtomicOp::None;
}

// The operand's size: .64 / .F64 / F32x2 are 8 bytes, F32x4 and F16x8-style 16, else 4.
int atomic_width(const std::vector<std::string>& mods) {
  for (const std::string& m : mods) {
    if (m == "64" || m == "F64" || m == "S64" || m == "U64" || m == "F32x2") return 8;
    if (m == "128" || m == "F32x4" || m == "F16x8" || m == "BF16x8") return 16;
  }
  return 4;
}

bool float_atomic(const std::vector<std::string>& mods) {
  for (const std::string& m : mods)
    if (m.size() >= 2 && (m[0] == 'F' || (m[0] == 'B' && m.size() > 2 && m[1] == 'F')) && std::isdigit(static_cast<unsigned char>(m.back())))
      return true;
  return false;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// "R12" -> 12, "RZ" -> -1; not a register -> false.
bool register_number(std::string_view t, std::string_view prefix, int& n) {
  if (t.substr(0, prefix.size()) != prefix) return false;
  t.remove_prefix(prefix.size());
  if (t == "Z") {
    n = -1;
    return true;
  }
  if (t.empty() || t.size() > 3 ||
      !std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
    return false;
  n = 0;
  for (char c : t) n = n * 10 + (c - '0');
  return true;
}

bool parse_hex(std::string_view t, std::int64_t& v) {
  bool negative = false;
  if (!t.empty() && t.front() == '-') {
    negative = true;
    t.remove_prefix(1);
  }
  if (t.substr(0, 2) != "0x" || t.size() < 3 || t.size() > 18) return false;
  std::uint64_t x = 0;
  for (char c : t.substr(2)) {
    const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                  : (c >= 'a' && c <= 'f')                   ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F')                   ? c - 'A' + 10
                                                              : -1;
    if (d < 0) return false;
    x = x * 16 + static_cast<std::uint64_t>(d);
  }
  v = negative ? -static_cast<std::int64_t>(x) : static_cast<std::int64_t>(x);
  return true;
}

// The first operand, when it is a general register (ATOMS R5, ... / RZ); ATOMG and ATOM put
// a predicate first (PT, P0), skipped.
bool destination_is_rz(std::string_view operands) {
  while (!operands.empty()) {
    const auto comma = operands.find(',');
    const std::string_view t = trim(operands.substr(0, comma));
    if (t.empty() || t.front() != 'P') return t == "RZ";
    if (comma == std::string_view::npos) return false;
    operands.remove_prefix(comma + 1);
  }
  return false;
}

}  // namespace

bool parse_address(std::string_view operands, SassAddress& out) {
  std::size_t from = 0;
  while (true) {
    const auto open = operands.find('[', from);
    if (open == std::string_view::npos) return false;
    const auto close = operands.find(']', open);
    if (close == std::string_view::npos) return false;
    if (open >= 4 && operands.substr(open - 4, 4) == "desc") {  // desc[UR4]: the descriptor
      from = close + 1;
      continue;
    }
    SassAddress a;
    std::string_view inside = operands.substr(open + 1, close - open - 1);
    while (!inside.empty()) {
      const auto plus = inside.find('+');
      std::string_view term = trim(inside.substr(0, plus));
      inside.remove_prefix(plus == std::string_view::npos ? inside.size() : plus + 1);
      if (term.empty()) continue;  // "+-0x8" leaves "" then "-0x8"
      bool wide = false;
      if (const auto dot = term.find('.'); dot != std::string_view::npos) {
        wide = term.substr(dot) == ".64";
        term = term.substr(0, dot);
      }
      int n = 0;
      std::int64_t v = 0;
      if (register_number(term, "UR", n)) {
        a.ureg = n;
      } else if (register_number(term, "R", n)) {
        a.reg = n;
        a.wide = wide;
      } else if (parse_hex(term, v)) {
        a.imm += v;
      } else {
        return false;
      }
    }
    out = a;
    return true;
  }
}

SassMemoryOp decode_memory(std::string_view opcode, const std::vector<std::string>& modifiers,
                           std::string_view operands) {
  SassMemoryOp op;
  op.kind = kind_of(opcode);
  if (op.kind == Kind::Other) return op;
  if (!parse_address(operands, op.address)) {
    op.kind = Kind::Other;
    return op;
  }
  if (is_atomic(op.kind)) {
    op.atomic = atomic_op(modifiers);
    op.width = atomic_width(modifiers);
    op.float_op = float_atomic(modifiers);
    op.result_unused = op.kind == Kind::GlobalReduction || destination_is_rz(operands);
  } else {
    op.width = load_store_width(modifiers);
  }
  return op;
}

}  // namespace warpscope::sass
