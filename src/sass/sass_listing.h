// sass_listing.h: nvdisasm's listing as values: every instruction with its source position,
// the labels, the loops, and the memory instructions decoded (sass_memory.h).
//
//   nvdisasm -c -gi kernel.cubin:
//     .text.gemm_tiled:
//       //## File "gemm_tiled.cu", line 26
//       /*02e0*/   LDS.128 R12, [R16+0x10] ;
//   -> SassFunction{"gemm_tiled", instructions {offset 0x2e0, "LDS" . {"128"}, gemm_tiled.cu:26},
//                   memory_ops {LDS.128: SharedLoad, 16 bytes, [R16 + 0x10]}}
//
// Inlined code carries a chain of File lines, innermost first:
//       //## File "common.cuh", line 44 inlined at "sort.cu", line 205
//       //## File "sort.cu", line 205
//       /*0250*/   LDS R9, [R8+0x800] ;
// The instruction's `loc` is the innermost position (common.cuh:44, what a PTX .loc names),
// `inlined_at` the call sites outward (sort.cu:205).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sass/sass_memory.h"
#include "support/expected.h"

namespace warpscope::sass {

struct SassLoc {
  std::string file;  // as nvdisasm prints it (a path)
  int line = 0;
  friend bool operator==(const SassLoc&, const SassLoc&) = default;
};

struct SassInstruction {
  std::uint32_t offset = 0;   // byte offset in the function, /*02e0*/
  Guard guard;                // @P0, @!P1, @!PT (never), none
  std::string mnemonic;       // "LDS.128", "ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU"
  std::string opcode;         // "LDS"
  std::vector<std::string> modifiers;  // {"128"}
  std::string operands;       // the text after the mnemonic, without ';'
  SassLoc loc;                // innermost source position (empty file when none)
  std::vector<SassLoc> inlined_at;  // call sites, nearest first
  // The lines ncu's Source page shows it at: its line-table rows (`//## Row` comments,
  // line_table.h), else (a listing without them) `loc` and, inlined, the outermost call site.
  std::vector<SassLoc> source_lines;
  int branch_target = -1;     // BRA/BRX/JMP to a label: the target's instruction index
};

// A backward branch and the instructions it repeats: [head, tail] (indexes, inclusive).
struct SassLoop {
  int head = 0;
  int tail = 0;
  bool contains(int i) const { return i >= head && i <= tail; }
};

struct SassFunction {
  std::string name;
  std::vector<SassInstruction> instructions;
  std::vector<SassMemoryOp> memory_ops;  // program order; SassMemoryOp::instruction indexes `instructions`
  std::vector<SassLoop> loops;           // by head
  bool has_rows = false;                 // the listing had line-table rows (`//## Row`)

  // The innermost loop containing instruction `i` (-1 when none).
  int loop_of(int i) const;
};

// Parses nvdisasm's text; an error only when no function is found at all. Lines it does
// not understand are skipped (the listing format has no grammar to check against).
Expected<std::vector<SassFunction>> parse_sass_listing(std::string_view text);

// The file name without its directory ("/a/b/x.cu" -> "x.cu"): PTX .file and nvdisasm
// paths are compared by it.
std::string_view base_name(std::string_view path);

}  // namespace warpscope::sass
