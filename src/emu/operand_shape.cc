// operand_shape.cc: how many operands each opcode's executor reads.
#include "emu/operand_shape.h"

#include <algorithm>

namespace warpscope::emu {
namespace {

using ptx::Opcode;

// The operands each opcode's executor reads: destinations, sources, memory operands.
// A malformed instruction (ptxas would reject it) is a link error, never a bad read.
struct Shape {
  int dst = 0, src = 0, addr = 0;
};

Shape shape_of(const Op& op) {
  const int v = op.vec;
  switch (op.opcode) {
    case Opcode::Add: case Opcode::Sub: case Opcode::Mul: case Opcode::Div: case Opcode::Rem:
    case Opcode::Min: case Opcode::Max: case Opcode::Copysign: case Opcode::AddC: case Opcode::SubC:
    case Opcode::Mul24: case Opcode::And: case Opcode::Or: case Opcode::Xor: case Opcode::Shl: case Opcode::Shr:
    case Opcode::Set: case Opcode::Bmsk:
      return {1, 2, 0};
    case Opcode::Mad: case Opcode::Fma: case Opcode::Mad24: case Opcode::Sad: case Opcode::MadC:
    case Opcode::Dp4a: case Opcode::Dp2a:
    case Opcode::Shf: case Opcode::Bfe: case Opcode::Prmt: case Opcode::Selp: case Opcode::Slct:
      return {1, 3, 0};
    case Opcode::Bfi: case Opcode::Lop3: return {1, 4, 0};
    case Opcode::Abs: case Opcode::Neg: case Opcode::Not: case Opcode::Cnot: case Opcode::Popc: case Opcode::Clz:
    case Opcode::Brev: case Opcode::Bfind: case Opcode::Rcp: case Opcode::Sqrt: case Opcode::Rsqrt: case Opcode::Sin:
    case Opcode::Cos: case Opcode::Ex2: case Opcode::Lg2: case Opcode::Tanh: case Opcode::Testp: case Opcode::Mov:
    case Opcode::Cvt: case Opcode::Cvta: case Opcode::Isspacep: case Opcode::Vote: case Opcode::Match:
    case Opcode::Redux:
      return {1, 1, 0};
    case Opcode::Setp: return {1, 2, 0};
    case Opcode::Shfl: return {1, 3, 0};
    case Opcode::Activemask: case Opcode::Createpolicy: return {1, 0, 0};
    case Opcode::Ld: case Opcode::Ldu: case Opcode::LdMatrix: return {v, 0, 1};
    case Opcode::St: case Opcode::StMatrix: return {0, v, 1};
    case Opcode::Atom: return {1, op.subop == ptx::SubOp::Cas ? 2 : 1, 1};
    case Opcode::Red: return {0, 1, 1};
    case Opcode::CpAsync: return {0, 1, 2};
    case Opcode::BarSync: case Opcode::BarrierSync: case Opcode::BarArrive: case Opcode::BarrierArrive:
      return {0, 1, 0};
    case Opcode::BarRed: case Opcode::BarrierRed: return {1, 2, 0};
    default: return {};
  }
}

}  // namespace

Status check_shape(const Op& op) {
  Shape s = shape_of(op);
  int dst = 0;
  for (std::uint32_t r : op.dst) dst += r != kNoRow ? 1 : 0;
  int addr = (op.addr != kNoRow ? 1 : 0) + (op.addr2 != kNoRow ? 1 : 0);
  const int max_vec = op.opcode == Opcode::Atom || op.opcode == Opcode::Red ? 8 : 4;  // .v8.f16
  if (op.vec < 1 || op.vec > max_vec || op.ndst < s.dst || op.nsrc < s.src || addr < s.addr ||
      (op.ndst > 0 && op.dst[0] == kNoRow && s.dst > 0) || dst < std::min(s.dst, 1))
    return make_error("malformed instruction '" + op.origin->text + "': expected " + std::to_string(s.dst) +
                      " destination(s), " + std::to_string(s.src) + " source(s) and " + std::to_string(s.addr) +
                      " address(es)");
  return Ok{};
}


}  // namespace warpscope::emu
