// kernel_json.h: `warpscope kernel --json`:
//   {"kernel", "metrics": {ncu name: total}, "lines": [{"file", "line", "metrics": {...}}, ...], ...}
#pragma once

#include <nlohmann/json.hpp>

#include "analysis/kernel_report.h"

namespace warpscope::report {

nlohmann::json kernel_json(const analysis::KernelReport& report);

}  // namespace warpscope::report
