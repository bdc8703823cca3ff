// findings.h: the flagged lines of a kernel report, one finding per (line, kind of access),
// as the diagnostics and SARIF writers state them.
//
//   transpose_tiled.cu:27:5  shared-bank-conflict  load of 'tile'  32-way  262144 wavefronts, ideal 8192
//   aos_soa.cu:17:5          uncoalesced-global    load            49152 sectors, ideal 16384, stride
//
// A line is flagged when its shared accesses cost wavefronts beyond the ideal, or its global
// accesses touch sectors beyond the ideal; a line with both gives two findings. Figures are
// scaled like the report's totals when only some blocks were emulated. Code inlined from the
// CUDA toolkit's headers (atomicAdd, __ldg, cooperative groups) is found at the user's call
// site, where the report counts it too, not in the header.
#pragma once

#include <string>
#include <vector>

#include "analysis/kernel_report.h"

namespace warpscope::report {

// Rule identifiers, shared by the diagnostics and SARIF writers.
inline constexpr const char* kRuleBankConflict = "shared-bank-conflict";
inline constexpr const char* kRuleUncoalesced = "uncoalesced-global";

struct Finding {
  enum class Kind { SharedBankConflict, UncoalescedGlobal };
  Kind kind = Kind::SharedBankConflict;
  std::string file;
  int line = 0;
  int column = 0;         // 0: unknown
  std::string source;     // the line's text, when it was readable
  std::string operation;  // "load", "store", "atomic", "reduction"
  std::string array;      // the region the worst instruction touched ("tile"); may be empty
  // shared memory
  int conflict_degree = 0;
  long long wavefronts = 0;
  long long ideal_wavefronts = 0;
  // global memory
  long long sectors = 0;
  long long ideal_sectors = 0;
  std::string cause;  // the worst warp's coalescing cause: "stride", "misalignment", "scatter"

  const char* rule() const { return kind == Kind::SharedBankConflict ? kRuleBankConflict : kRuleUncoalesced; }
  double sector_efficiency() const {
    return sectors == 0 ? 1.0 : static_cast<double>(ideal_sectors) / static_cast<double>(sectors);
  }
};

// In source order (file, line, column), shared before global on one line.
std::vector<Finding> find_flagged_lines(const analysis::KernelReport& report);

// A finding in words, without position: "32-way shared-memory bank conflict loading 'tile'
// (262144 wavefronts, ideal 8192)".
std::string finding_message(const Finding& finding);

// A shared variable's name as the source spells it: "_ZZ15transpose_tiledE4tile" -> "tile".
std::string source_name(const std::string& ptx_name);

}  // namespace warpscope::report
