// operand_shape.h: the operands each opcode's executor reads (destinations, sources,
// memory operands). The linker rejects an instruction that has fewer, so executors can
// index Op::dst/src/addr without checks: a malformed instruction is a link error, never a
// read of a missing row.
#pragma once

#include "emu/program.h"
#include "support/expected.h"

namespace warpscope::emu {

// Error: "malformed instruction 'add.s32': expected 1 destination(s), 2 source(s) and 0 address(es)".
Status check_shape(const Op& op);

}  // namespace warpscope::emu
