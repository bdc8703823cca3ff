// kernel_text.h: `warpscope kernel` as text: totals, a table per source line (worst first),
// and for the worst warp of each flagged line its lane -> address -> bank listing (global
// addresses as buffer + offset), then what to do next.
//
//   line                      shared ld    shared st  ...  global ld      global st
//   transpose_tiled.cu:27     262144/8192  -          ...  -              32768/32768
//   device_atomic_functions.hpp:112 ...    (inlined: also counted at histogram.cu:35)
//   ...
//   Next: warpscope fix examples/transpose_tiled.ptx --kernel transpose_tiled_f32 ...
//
// A failed emulation (an error diagnostic) prints no figures: they would be partial.
#pragma once

#include <string>

#include "analysis/kernel_report.h"
#include "emu/events.h"

namespace warpscope::report {

struct KernelTextOptions {
  bool verbose = false;       // diagnostics also give their PTX line
  std::string fix_command;    // `warpscope fix ...` for this launch, printed when a line is flagged
};

std::string kernel_text(const analysis::KernelReport& report, const KernelTextOptions& options = {});

// One diagnostic as a line: "error: out-of-bounds ... at k.cu:27:5 (3 times)", with
// " [PTX line 83]" when verbose.
std::string diagnostic_text(const emu::Diagnostic& d, bool verbose);

}  // namespace warpscope::report
