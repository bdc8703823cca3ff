// check_report.h: `warpscope check LAUNCHES`: every launch of a launches file analysed, gated
// and compared with a baseline, as one table and one exit status.
//
//   launch                  kernel                 shared wf/ideal    global sectors/ideal  status
//   transpose_tiled_f32     transpose_tiled_f32    270336/16384       65536/65536           FAIL bank-conflicts
//   transpose_padded_f32    _Z16transpose_pad...   16384/16384        65536/65536           ok
//   31 launches: 29 ok, 1 failed a --fail-on condition, 1 worse than the baseline, 0 could not run
//
// --json writes the run as data; a saved one is the next run's --baseline, compared figure by
// figure: the kernel's ncu metrics, and per source line (lines in both runs) its shared
// wavefronts, global sectors and their excess over the ideal. Any that grew is a regression.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/kernel_report.h"
#include "support/expected.h"

namespace warpscope::report {

struct CheckedLaunch {
  std::string name;    // the launches file's NAME
  std::string origin;  // "examples/launches.txt:12"
  std::string error;   // why it could not run (then no report)
  std::optional<analysis::KernelReport> report;
  std::vector<std::string> failures;     // "--fail-on bank-conflicts: 253952 shared wavefronts beyond the ideal"
  std::vector<std::string> regressions;  // "l1tex__..._op_ld: 8192 -> 262144"
  std::string fix_command;               // `warpscope fix ...` for this launch

  const char* status() const;  // "ok", "failed", "worse", "error"
};

struct CheckRun {
  std::string launches_file;
  std::vector<CheckedLaunch> launches;
  std::vector<std::string> notes;  // conditions that applied to no launch, baseline launches not run, ...
  bool has_baseline = false;
};

// The figures of one launch in a baseline (a saved `check --json`).
struct BaselineLaunch {
  std::string name;
  analysis::Metrics metrics;
  std::vector<std::pair<std::string, analysis::Metrics>> lines;  // "file:line" -> figures
};

// Reads a saved `warpscope check --json` output.
Expected<std::vector<BaselineLaunch>> read_baseline(const std::string& json_text, const std::string& path);

// Every figure of `now` that is larger than in the baseline, in words.
std::vector<std::string> regressions(const analysis::KernelReport& now, const BaselineLaunch& before);

std::string check_text(const CheckRun& run, bool verbose);
nlohmann::json check_json(const CheckRun& run);
// One SARIF log, one run per launch that ran (each as kernel_sarif makes it, named by launch).
nlohmann::json check_sarif(const CheckRun& run);

}  // namespace warpscope::report
