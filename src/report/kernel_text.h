// kernel_text.h: `warpscope kernel` as text: totals, a table per source line (worst first),
// and for the worst warp of each flagged line its lane -> address -> bank listing.
//
//   line                      shared ld        shared st   ...  global ld        global st
//                             wf/ideal  deg    wf/ideal         sectors/ideal    sectors/ideal
//   transpose_tiled.cu:27     262144/8192 32   -                 32768/32768 ...
#pragma once

#include <string>

#include "analysis/kernel_report.h"

namespace warpscope::report {

std::string kernel_text(const analysis::KernelReport& report);

}  // namespace warpscope::report
