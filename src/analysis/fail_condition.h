// fail_condition.h: `--fail-on CONDITION`, a gate a project puts on its kernels in CI.
//
//   bank-conflicts            any shared-memory wavefronts beyond the ideal
//   sector-efficiency<X       global ideal sectors / sectors below X (0.8 or 80%)
//   excess-wavefronts>N       shared wavefronts beyond the ideal, summed, above N
//   excess-sectors>N          global sectors beyond the ideal, summed, above N
//
// on the kernel's totals, or with a scope in front, on one source line or one array:
//
//   line FILE:N CONDITION     the figures of that line (FILE: the path's last components,
//                             "transpose_tiled.cu:27" or "examples/transpose_tiled.cu:27")
//   array NAME CONDITION      the accesses of one array: a shared array as the source names it
//                             ("tile"), or a buffer by its parameter name or "arg<i>"
//
// Figures are scaled when only some blocks were emulated; a kernel (line, array) without
// global accesses has no sector efficiency and never trips that condition.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/kernel_report.h"
#include "support/expected.h"

namespace warpscope::analysis {

struct FailCondition {
  enum class Kind { BankConflicts, SectorEfficiencyBelow, ExcessWavefrontsAbove, ExcessSectorsAbove };
  enum class Scope { Kernel, Line, Array };
  Kind kind = Kind::BankConflicts;
  double threshold = 0;  // efficiency as a fraction 0..1, or a count
  std::string text;      // as the user wrote it, for messages
  Scope scope = Scope::Kernel;
  std::string target;    // Line: the file ("transpose_tiled.cu"); Array: the name
  int line = 0;          // Line
};

// "sector-efficiency<80%" -> {SectorEfficiencyBelow, 0.8}; a bad one names the accepted forms.
Expected<FailCondition> parse_fail_condition(std::string_view text);

// Every --fail-on, parsed (a usage error for the first bad one).
Expected<std::vector<FailCondition>> parse_fail_conditions(const std::vector<std::string>& texts);

// When the condition holds for the report, why, in words ("global sector efficiency 33.3%,
// below 80%"); nothing when it does not. A line or array condition whose target the report
// does not have holds too (a typo must not pass a gate), saying what the report has.
std::optional<std::string> check_fail_condition(const FailCondition& condition, const KernelReport& report);

// True when the report has the condition's line (its file and line with memory accesses) or
// array; kernel conditions always apply. `warpscope check` tests a scoped condition only on
// the launches it applies to.
bool fail_condition_applies(const FailCondition& condition, const KernelReport& report);

}  // namespace warpscope::analysis
