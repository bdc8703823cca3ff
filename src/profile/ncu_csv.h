// ncu_csv.h: the CSV that `ncu --csv` prints, as rows of cells, and its numbers.
//
//   "ID","Kernel Name","Grid Size",...,"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
//   "","","",...,"sector"                      <- the units row of --page raw
//   "0","transpose_tiled_f32","(16, 16, 1)",...,"65,536"
//
// Cells are quoted or bare, separated by commas; "" inside quotes is one quote; a quoted
// cell may span lines. ncu prints source text without doubling its quotes
// ("extern "C" __global__ ..."), so a quote ends a cell only before a comma or a line end. Numbers carry thousands separators ("65,536"), "-" or "n/a" for none.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/expected.h"

namespace warpscope::profile {

struct CsvRow {
  int line = 0;  // 1-based line where the row starts, for messages
  std::vector<std::string> cells;
};

// Every row of `text`; an unterminated quote is an error at its line and column.
// Blank lines are skipped.
Expected<std::vector<CsvRow>> parse_csv(std::string_view text, const std::string& path);

// "65,536" -> 65536, "7,145.62" -> 7145.62; nothing for "", "-", "n/a" or text.
std::optional<double> parse_ncu_number(std::string_view cell);

}  // namespace warpscope::profile
