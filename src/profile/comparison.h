// comparison.h: one profiled kernel, measured by ncu against predicted by warpscope.
//
//   metric                                              measured  predicted  difference
//   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld      262144     262144           0
//   line transpose_tiled.cu:27  L1 Wavefronts Shared      262144     262144           0
//
// A difference whose cause we know carries an explanation from a small table (inlined code
// shown only at its innermost line, arbitration in the bank-conflict counter, sampled
// blocks, PTX priced without the SASS); the others are "unexplained".
#pragma once

#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "analysis/kernel_report.h"
#include "profile/ncu_report.h"
#include "ptx/ir.h"

namespace warpscope::profile {

// Lines (file base name, line) where the kernel calls inlined code that was compiled into it.
using LineSet = std::set<std::pair<std::string, int>>;
LineSet inlined_call_sites(const ptx::Module& module, int function);

// The file's base name: ncu prints absolute paths, the PTX's .file often a relative one.
std::string file_key(const std::string& path);

struct FigureComparison {
  std::string name;                 // ncu metric (without .sum) or Source-page column
  std::optional<double> measured;   // nothing when ncu did not collect it
  long long predicted = 0;
  std::string explanation;          // why they differ, when known
  bool differs() const { return measured && *measured != static_cast<double>(predicted); }
};

struct LineComparison {
  std::string file;  // base name
  int line = 0;
  std::string source;
  std::vector<FigureComparison> figures;  // the four Source-page columns
};

struct KernelComparison {
  MeasuredKernel measured;
  std::string launch;        // the launch line or its name, when one was matched
  bool predicted = false;    // false: measured only, `missing` says why
  std::string missing;
  std::vector<std::string> notes;           // how the prediction was made (sampled, priced from PTX)
  std::vector<FigureComparison> metrics;    // kernel totals
  std::vector<LineComparison> lines;        // lines with any nonzero figure, file then line
  bool has_source_page = false;
  int differences = 0;                      // figures that differ
  int unexplained = 0;                      // of those, without an explanation
};

// Compares a kernel's measurements (and its Source page, when there is one) with the
// report warpscope made for the same launch.
KernelComparison compare_kernel(const MeasuredKernel& measured, const MeasuredSource* source,
                                const analysis::KernelReport& report, const LineSet& call_sites);

// A kernel ncu measured that warpscope could not predict, with the reason.
KernelComparison measured_only(const MeasuredKernel& measured, std::string why);

}  // namespace warpscope::profile
