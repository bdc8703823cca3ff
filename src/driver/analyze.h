// analyze.h: the library entry points behind `warpscope kernel` and `warpscope fix` (and
// the Python binding): run a prepared launch in the emulator, price it, build the report.
//
//   auto p = prepare_launch(request);              // launch.h
//   auto a = analyze_kernel(**p);                   // a->report: totals, lines, diagnostics
//   auto f = fix_kernel(**p, {.keep = 5});          // f->report: layouts, before/after runs
//
// Nothing here prints: progress goes to the hook, diagnostics into the reports.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/kernel_report.h"
#include "analysis/layout_fix.h"
#include "driver/launch.h"
#include "support/expected.h"

namespace warpscope::driver {

// Called as blocks finish (see emu::RunOptions::progress); empty: no progress.
using ProgressHook = std::function<void(std::uint64_t done, std::uint64_t total)>;

struct KernelAnalysis {
  analysis::KernelReport report;  // report.diagnostics: what the emulator found
  bool failed = false;            // an error diagnostic: the figures are partial
};

// One emulated, priced run of the launch. Setup problems are errors; problems found while
// running are diagnostics in the report (and `failed`).
Expected<KernelAnalysis> analyze_kernel(const PreparedLaunch& launch, const ProgressHook& progress = {});

struct FixRequest {
  std::size_t keep = 5;  // candidate layouts reported per array
  int registers = 0;     // registers per thread for occupancy; 0: ask `ptxas -v` (unless no_sass)
  double min_gain = 0.01;  // the least a change must save (a fraction of the figures it changes)
};

struct FixAnalysis {
  analysis::FixReport report;
  std::vector<emu::Diagnostic> diagnostics;  // the first run's
  bool failed = false;                       // some run raised an error diagnostic
};

// `warpscope fix`: record every access, search layouts, re-run the kernel with the chosen ones.
// `progress` is called for each of the runs in turn.
Expected<FixAnalysis> fix_kernel(const PreparedLaunch& launch, const FixRequest& request,
                                 const ProgressHook& progress = {});

}  // namespace warpscope::driver
