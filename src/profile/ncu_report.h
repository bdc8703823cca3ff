// ncu_report.h: what Nsight Compute measured, read from its CSV exports.
//
//   --page raw --csv --print-units base     one row per profiled kernel launch:
//       "ID","Kernel Name","Block Size","Grid Size",...,"<metric>.sum",...
//   --page source --csv --print-source cuda,sass   per kernel and source file:
//       "File Path","/src/transpose_tiled.cu"
//       "Function Name","transpose_tiled_f32"
//       "Line No","Source","Address","Source",...,"L1 Wavefronts Shared",...
//       "27","out[...] = tile[...];","-","-",...,"262144",...     <- a CUDA line
//       "","","0x7f..","LDS R5, [R2]",...                          <- its SASS rows
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emu/events.h"
#include "support/expected.h"

namespace warpscope::profile {

// One profiled launch from the raw page.
struct MeasuredKernel {
  int id = 0;                 // ncu's result ID (launch order)
  std::string name;           // as ncu printed it: plain, demangled or mangled
  emu::Dim3 grid, block;
  std::optional<std::uint32_t> dynamic_shared_bytes;  // when launch__shared_mem_per_block_dynamic was collected
  std::map<std::string, double> metrics;  // "<name>.sum" columns, named without ".sum"
  std::string device;         // "NVIDIA H200" when the export names it
};

// One source line of a kernel on the Source page.
struct MeasuredLine {
  std::string file;  // the path ncu printed
  int line = 0;
  std::string source;
  std::map<std::string, double> metrics;  // "L1 Wavefronts Shared", ..., "Instructions Executed"
};

// One kernel launch's Source page: every file's lines.
struct MeasuredSource {
  std::string function;
  std::vector<MeasuredLine> lines;  // in file order, then line order
};

// The raw page's kernels; an export with no kernel row is an error saying what it holds.
Expected<std::vector<MeasuredKernel>> parse_raw_page(std::string_view text, const std::string& path);

// The Source page's results, one per profiled launch in report order (a launch's files come
// one after another; a (file, function) pair seen again starts the next launch).
Expected<std::vector<MeasuredSource>> parse_source_page(std::string_view text, const std::string& path);

// Pairs each kernel with its Source page result: the k-th launch of a function with that
// function's k-th result. Kernels without one get nullptr.
std::vector<const MeasuredSource*> pair_sources(const std::vector<MeasuredKernel>& kernels,
                                                const std::vector<MeasuredSource>& sources);

// Why ncu could not measure, from its output (permission to read the counters, no
// supported GPU, no kernel profiled, an unknown metric); nothing when none is recognised.
std::optional<std::string> diagnose_ncu_output(std::string_view output);

}  // namespace warpscope::profile
