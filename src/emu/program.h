// program.h: a kernel linked for emulation: one flat array of operations whose operands
// are rows of the warp's register file.
//
//   row layout (each row holds 32 lanes of 64 bits):
//   [ registers of kernel | registers of each called .func | zero | discard |
//     special registers used (%tid.x, %ctaid.y, ...) | constants (immediates, symbol addresses) ]
//
// Immediates and symbol addresses become constant rows, so every source operand is a row
// and the executors never look at operand kinds. Branch targets are program indices;
// .func parameters live in each thread's local memory, after the .local variables.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/events.h"
#include "emu/memory.h"
#include "ptx/ir.h"
#include "support/expected.h"

namespace warpscope::emu {

inline constexpr std::uint32_t kNoRow = 0xffffffffu;

struct Op {
  ptx::Opcode opcode = ptx::Opcode::Unsupported;
  ptx::Family family = ptx::Family::Unsupported;
  ptx::Type type = ptx::Type::None;
  ptx::Type type2 = ptx::Type::None;
  ptx::Space space = ptx::Space::None;
  ptx::Space space2 = ptx::Space::None;
  ptx::Cmp cmp = ptx::Cmp::None;
  ptx::Rounding rounding = ptx::Rounding::None;
  ptx::SubOp subop = ptx::SubOp::None;
  std::uint8_t vec = 1;
  std::uint8_t ndst = 0;
  std::uint8_t nsrc = 0;
  bool guard_negated = false;
  bool reads_clock = false;      // a source is a clock (%clock, %clock64, %globaltimer, ...)
  bool polls = false;            // reads what other warps may change (see block.h: yields)
  bool cp_async_ignore_src = false;  // cp.async: src[1] is ignore-src (a predicate), not src-size
  bool cp_async_bypass = false;      // cp.async.cg: LDGSTS.BYPASS (L1 bypassed)
  std::uint8_t negated_src = 0;  // bit k: source k is a negated predicate (!%p)
  std::uint32_t flags = 0;
  std::uint32_t variant = 0;  // ptx::Instruction::variant (ptx/async_variant.h)
  std::uint32_t guard = kNoRow;
  // Up to 8: atom/red .v8.f16 has eight destinations and eight sources.
  std::array<std::uint32_t, 8> dst{kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow};
  std::array<std::uint32_t, 8> src{kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow, kNoRow};
  // Memory operand [addr + offset]; cp.async's source is [addr2 + offset2].
  std::uint32_t addr = kNoRow;
  std::int64_t offset = 0;
  std::uint32_t addr2 = kNoRow;
  std::int64_t offset2 = 0;
  int region = -1;            // the symbol's region when the address names one
  std::uint32_t target = 0;   // bra: program index; call: index into Program::calls
  // The Async family reads all its operands from Program::operand_rows[operands ..
  // operands + noperands) (a TMA copy has more than the fixed slots hold).
  std::uint32_t operands = 0;
  std::uint8_t noperands = 0;
  std::uint32_t reconverge = kNoRow;  // conditional bra: where its lanes meet again (reconvergence.h)
  std::uint32_t tensor = kNoRow;      // tensor-core ops: index into Program::tensor_operands
  const ptx::Instruction* origin = nullptr;  // nullptr for the implicit ret after each body

  bool has(std::uint32_t f) const { return (flags & f) != 0; }
};

// A tensor-core instruction's register operands, which may be longer than Op's four:
// one row list per PTX operand in order (a register or a number is a list of one; the
// memory operand [a] is an empty list, its row in Op::addr).
//   mma.sync... {%f1..%f4}, {%r1..%r4}, {%r5,%r6}, {%f5..%f8}  -> 4 lists of 4, 4, 2, 4 rows
struct TensorOperands {
  std::vector<std::vector<std::uint32_t>> rows;
};

// One operand of an Async-family op, in PTX order, each vector element on its own:
//   cp.async.bulk.tensor.2d [%r1], [%rd1, {%r2, %r3}], [%r4]
//   -> {row %r1, address}, {row %rd1, address}, {row %r2}, {row %r3}, {row %r4, address}
// A destination register is a row like a source; an address adds its offset (and, for a
// shared symbol, its region).
struct OperandRow {
  std::uint32_t row = kNoRow;
  std::int64_t offset = 0;
  int region = -1;
  bool address = false;
};

struct CallLink {
  std::uint32_t entry = 0;  // callee's first operation
  // A function declared but not defined here (vprintf, __assertfail, ...): vprintf runs
  // as a no-op returning 0; calling any other is an unsupported-instruction error.
  bool external = false;
  std::string callee;
  struct Copy {
    std::uint32_t from = 0, to = 0, size = 0;  // local-memory offsets
  };
  std::vector<Copy> arguments;  // caller's param -> callee's param, before the call
  std::vector<Copy> returns;    // callee's return -> caller's param, after ret
};

struct KernelParam {
  std::string name;
  ptx::Type type = ptx::Type::None;
  std::uint32_t offset = 0;  // in the parameter buffer
  std::uint32_t size = 0;
};

struct SregRow {
  ptx::Sreg sreg;
  std::uint8_t component;
  std::uint32_t row;
};

struct Program {
  std::uint64_t id = 0;  // unique per link: keys per-instruction caches (tensor_exec.h)
  const ptx::Module* module = nullptr;
  int kernel = -1;
  std::string name;
  std::vector<Op> code;
  std::vector<CallLink> calls;
  std::uint32_t num_rows = 0;
  std::uint32_t zero_row = 0;
  std::uint32_t discard_row = 0;
  std::vector<SregRow> sregs;
  std::uint32_t first_constant_row = 0;
  std::vector<std::uint64_t> constants;
  std::vector<KernelParam> params;
  std::uint32_t param_bytes = 0;
  std::uint32_t static_shared_bytes = 0;
  std::uint32_t dynamic_shared_offset = 0;  // where extern .shared arrays start
  bool uses_dynamic_shared = false;
  std::uint32_t local_bytes = 0;            // per thread: .local variables and .func params
  std::vector<Region> regions;              // shared variables, then .global variables
  std::vector<TensorOperands> tensor_operands;  // Op::tensor indexes this
  std::vector<OperandRow> operand_rows;     // the Async family's operands (Op::operands)
  // A loop polls global (or generic) memory: an atomic or a volatile/relaxed/acquire load
  // between a backward branch and its target (a lock, a flag another block sets). Such a
  // kernel's blocks run one after another on one worker (launch.h), so that each wait spins
  // as few times as the block order allows, the same every run.
  bool waits_on_other_blocks = false;
};

// Links `kernel` (an .entry index) and every function it calls. Module-scope .global
// and .const variables are allocated in `memory` on first use (once per module).
// Errors: not an entry, recursion, unknown symbols. Calls to functions without a body
// are kept (see CallLink::external) and fail only when reached.
Expected<Program> link(const ptx::Module& module, int kernel, GlobalMemory& memory);

// Finds an .entry by any spelling of its name (support/kernel_name.h: mangled, c++filt's,
// ncu's, plain): "transpose" matches "_Z9transposePfPKfi". An empty name takes the file's
// only kernel. An ambiguous or unknown name is an error listing the kernels demangled.
Expected<int> find_kernel(const ptx::Module& module, std::string_view name);

}  // namespace warpscope::emu
