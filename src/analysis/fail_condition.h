// fail_condition.h: `--fail-on CONDITION`, a gate a project puts on its kernels in CI.
//
//   bank-conflicts            any shared-memory wavefronts beyond the ideal
//   sector-efficiency<X       global ideal sectors / sectors below X (0.8 or 80%)
//   excess-wavefronts>N       shared wavefronts beyond the ideal, summed over the kernel, above N
//   excess-sectors>N          global sectors beyond the ideal, summed over the kernel, above N
//
// All figures are the kernel's totals (scaled when only some blocks were emulated); a
// kernel without global accesses has no sector efficiency and never trips that condition.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "analysis/kernel_report.h"
#include "support/expected.h"

namespace warpscope::analysis {

struct FailCondition {
  enum class Kind { BankConflicts, SectorEfficiencyBelow, ExcessWavefrontsAbove, ExcessSectorsAbove };
  Kind kind = Kind::BankConflicts;
  double threshold = 0;  // efficiency as a fraction 0..1, or a count
  std::string text;      // as the user wrote it, for messages
};

// "sector-efficiency<80%" -> {SectorEfficiencyBelow, 0.8}; a bad one names the accepted forms.
Expected<FailCondition> parse_fail_condition(std::string_view text);

// When the condition holds for the report, why, in words ("global sector efficiency 33.3%,
// below 80%"); nothing when it does not.
std::optional<std::string> check_fail_condition(const FailCondition& condition, const KernelReport& report);

}  // namespace warpscope::analysis
