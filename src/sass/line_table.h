// line_table.h: ptxas's line table (the cubin's .debug_line), the rows ncu's Source page
// attributes each SASS instruction by.
//
// ncu shows an instruction at the line of every row at its address (the rows at the greatest
// row address <= its offset). For inlined code ptxas writes, besides the innermost line, a
// row for a call site only where that inlined instance (a line-table context) begins, so
// only some of an inlined helper's instructions are shown at the call site. nvdisasm -gi
// prints the whole inlining chain at every instruction and cannot tell them apart:
//
//   .debug_line rows            nvdisasm -gi                    ncu's Source page
//   0x60 kernel.cu:67           0x60 55 inlined at 67; 67       0x60 at 55 and 67
//   0x60 kernel.cu:55 (ctx 67)
//   0xc0 kernel.cu:53 (ctx 67)  0xc0 53 inlined at 67; 67       0xc0 at 53 only
//
// warpscope adds the rows to the listing it caches, one comment per row before the first
// instruction they cover (annotate_listing):
//       //## Row "kernel.cu", line 67
//       //## Row "kernel.cu", line 55
//       /*0060*/   ULDC.64 UR6, c[0x0][0x210] ;
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "support/expected.h"

namespace warpscope::sass {

struct LineRow {
  std::uint32_t offset = 0;  // byte offset in the function
  std::string file;          // as nvdisasm prints it (directory/name)
  int line = 0;
};

// Function symbol -> its rows, in line-program order. An error when `elf` is not a 64-bit
// little-endian ELF with a .debug_line of DWARF version 2 to 4.
Expected<std::map<std::string, std::vector<LineRow>>> read_line_rows(std::string_view elf);

// `listing` (nvdisasm -c -gi) with a `//## Row` comment per row, placed before the first
// instruction at or after the rows' address (only the last group of rows at or before an
// instruction applies to it).
std::string annotate_listing(std::string_view listing, const std::map<std::string, std::vector<LineRow>>& rows);

}  // namespace warpscope::sass
