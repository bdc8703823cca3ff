// async_parser.cc: the operand form only the asynchronous instructions use: a tensor
// address with its coordinates,
//
//   cp.async.bulk.tensor.5d... [%r1], [%rd1, {%r2, %r3, %r4, %r5, 0}], [%r6];
//   -> operands: Addr{%r1}, Addr{%rd1}, Vec{%r2, %r3, %r4, %r5}, Vec{0}, Addr{%r6}
//
// The coordinates become vector operands of at most four elements each, right after the
// address (a 5-D box has two); the executor reads as many as the .Nd modifier says.
#include "ptx/parser_impl.h"

namespace warpscope::ptx::detail {

std::vector<Operand> Parser::coordinate_vectors(Function& f, Instruction& inst) {
  expect('{', "to open the tensor coordinates");
  std::vector<Operand> out;
  Operand chunk;
  chunk.kind = OperandKind::Vec;
  for (;;) {
    const Token& at = peek();
    Operand e = operand(f, inst);
    if (e.kind != OperandKind::Reg && e.kind != OperandKind::Imm)
      fail(at, "expected a register or an integer among the tensor coordinates");
    if (chunk.count == 4) {
      out.push_back(chunk);
      chunk = Operand{};
      chunk.kind = OperandKind::Vec;
    }
    if (out.size() * 4 + chunk.count >= 5) fail(at, "a tensor has at most 5 coordinates");
    auto k = chunk.count++;
    if (e.kind == OperandKind::Imm) {
      chunk.vec_imm_mask = static_cast<std::uint8_t>(chunk.vec_imm_mask | (1u << k));
      chunk.vec_imm[k] = e.imm;
      chunk.reg[k] = kNoReg;
    } else {
      chunk.reg[k] = e.reg[0];
    }
    if (accept('}')) break;
    expect(',', "between tensor coordinates");
  }
  out.push_back(chunk);
  return out;
}

}  // namespace warpscope::ptx::detail
