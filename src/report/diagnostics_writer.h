// diagnostics_writer.h: the flagged lines of a kernel report as compiler diagnostics, which
// editors and CI logs pick up (the CLI prints them on standard error):
//
//   transpose_tiled.cu:27:5: warning: 32-way shared-memory bank conflict loading 'tile' (262144 wavefronts, ideal 8192)
//       out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
//       ^
//   aos_soa.cu:17:5: warning: uncoalesced global load: 49152 sectors, ideal 16384 (33% efficiency, stride)
//
// The column is left out when the .loc has none; the source line and caret when the source
// file was not readable.
#pragma once

#include <string>

#include "analysis/kernel_report.h"

namespace warpscope::report {

std::string diagnostics_text(const analysis::KernelReport& report);

}  // namespace warpscope::report
