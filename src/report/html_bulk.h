// html_bulk.h: a TMA or bulk copy of the HTML report: its figures and the shared-memory
// footprint of its first issue, drawn on the banks (used by html_writer.cc).
//
//   bank     0    1    2    3    4  ...  31      one row per 128 bytes of shared memory (32 banks
//   +0x0    r0 +0              r0 +16  ...       of 4 bytes); a 16-byte chunk of the box spans 4
//   +0x80   r1 +16             r1 +0   ...       banks and names its box row and byte column, so
//                                                a swizzle shows as chunks moving between rows
#pragma once

#include <string>

#include "analysis/kernel_report.h"

namespace warpscope::report {

// The SVG footprint alone; empty when the copy has no shared end (a prefetch).
std::string bulk_footprint_svg(const analysis::BulkCost& cost, int max_rows = 32);

// The copy's section of a line's details: heading, figures, footprint.
std::string bulk_copy_html(const analysis::LineBulkCopy& copy);

const char* bulk_kind_name(const analysis::BulkCost& cost);  // "TMA load", "bulk store", ...

}  // namespace warpscope::report
