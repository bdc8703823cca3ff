// sass_memory.h: one SASS memory instruction decoded: what it touches, how wide, off which
// register, and (atomics) which operation.
//
//   LDS.128 R12, [R16+0x10]                  -> SharedLoad, 16 bytes, [R16 + 0x10]
//   @!P0 STS.64 [R7], R18                    -> SharedStore, 8 bytes, [R7], guard !P0
//   LDG.E.U16 R2, desc[UR4][R2.64+-0x8]      -> GlobalLoad, 2 bytes, [R2.64 - 8]
//   ATOMS.CAST.SPIN.64 R6, [R19], R4, R6     -> SharedAtomic, 8 bytes, Cast (a CAS loop's try)
//   REDG.E.ADD.F32x4.FTZ.RN.STRONG.GPU ...   -> GlobalReduction, 16 bytes, Add, float
//   ATOMG.E.EXCH.STRONG.GPU PT, R5, [..], R12 -> GlobalAtomic, Exch, result used
//   ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, RZ, .. -> GenericAtomic (a shared address falls back)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope::sass {

enum class Kind : unsigned char {
  SharedLoad,       // LDS
  SharedStore,      // STS
  GlobalLoad,       // LDG
  GlobalStore,      // STG
  GenericLoad,      // LD (a generic address: global or shared at run time)
  GenericStore,     // ST
  SharedAtomic,     // ATOMS
  GlobalAtomic,     // ATOMG (value-returning: ncu's op_atom)
  GlobalReduction,  // REDG / RED (no result: ncu's op_red)
  GenericAtomic,    // ATOM (generic address)
  Other,            // everything else (LDSM, LDGSTS, LDC, LDL, ...)
};

bool is_load(Kind k);
bool is_store(Kind k);
bool is_atomic(Kind k);

enum class AtomicOp : unsigned char {
  None, Add, Min, Max, Inc, Dec, And, Or, Xor, Exch, Cas,
  Cast,     // ATOMS.CAST(.SPIN): the compare-and-store try of a CAS loop ptxas wrote
  PopcInc,  // ATOMS.POPC.INC: the aggregated increment
};

// @P0 / @!P1 / @PT / @!PT / @UP0; none when `pred` < 0.
struct Guard {
  int pred = -1;  // 0..6 for P0..P6, 7 for PT
  bool negated = false;
  bool uniform = false;  // UPn
  bool present() const { return pred >= 0 && !(pred == 7 && !negated); }
  bool never() const { return pred == 7 && negated; }  // @!PT: the instruction never runs
};

// [R8+0x800], [UR4+0xc00], [R2+UR4], desc[UR6][R10.64+-0x8]: the register parts and the
// immediate (desc[...], the memory descriptor, is not part of the address).
struct SassAddress {
  int reg = -1;   // Rn; -1 for RZ or none
  int ureg = -1;  // URn; -1 for URZ or none
  std::int64_t imm = 0;
  bool wide = false;  // Rn.64: a 64-bit address in a register pair
};

struct SassMemoryOp {
  std::string mnemonic;  // "LDS.128", "ATOMS.POPC.INC.32"
  Kind kind = Kind::Other;
  int width = 4;         // bytes per lane moved (atomics: the operand's size)
  std::string file;      // innermost source position, as nvdisasm prints the file
  int line = 0;
  int instruction = -1;  // index in SassFunction::instructions
  Guard guard;
  SassAddress address;
  AtomicOp atomic = AtomicOp::None;
  bool result_unused = false;  // atomics: destination RZ, or a reduction
  bool float_op = false;       // atomics: F32, F64, F16x2, BF16x2, ...
  int loop = -1;               // innermost SassFunction::loops entry containing it
};

// Decodes an instruction's memory access from its opcode, modifiers and operand text; kind
// Other when it is not a shared, global or generic load, store or atomic.
SassMemoryOp decode_memory(std::string_view opcode, const std::vector<std::string>& modifiers,
                           std::string_view operands);

// The address inside the first [...] of `operands` that is not a desc[...]; false when none.
bool parse_address(std::string_view operands, SassAddress& out);

}  // namespace warpscope::sass
