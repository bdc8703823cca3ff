// sass_listing.h: the memory instructions of nvdisasm's listing, with their source lines.
//
//   nvdisasm -c -gi kernel.cubin:
//     .text.gemm_tiled:
//       //## File "gemm_tiled.cu", line 26
//       /*02e0*/   LDS.128 R12, [R16] ;
//   -> SassFunction{"gemm_tiled", {SassMemoryOp{"LDS.128", Shared, load, 16 bytes, gemm_tiled.cu:26}}}
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "support/expected.h"

namespace warpscope::sass {

enum class Kind : unsigned char { SharedLoad, SharedStore, GlobalLoad, GlobalStore, Other };

struct SassMemoryOp {
  std::string mnemonic;  // "LDS.128", "STG.E.64", "ATOMS.POPC.INC.32"
  Kind kind = Kind::Other;
  int width = 4;  // bytes per lane for loads and stores
  std::string file;  // innermost source file, as nvdisasm prints it
  int line = 0;
};

struct SassFunction {
  std::string name;
  std::vector<SassMemoryOp> memory_ops;
};

// Parses nvdisasm's text; an error only when no function is found at all.
Expected<std::vector<SassFunction>> parse_sass_listing(std::string_view text);

}  // namespace warpscope::sass
