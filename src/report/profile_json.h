// profile_json.h: `warpscope profile --json`:
//   {"kernels": [{"name", "id", "grid", "block", "launch", "predicted": true|false,
//                 "missing": "<why not predicted>", "notes": [...],
//                 "metrics": [{"name", "measured" (null: not collected), "predicted",
//                              "difference", "explanation"}],
//                 "lines": [{"file", "line", "source", "figures": [... as metrics ...]}],
//                 "differences", "unexplained"}],
//    "summary": {"kernels", "predicted", "agree", "differences", "unexplained"}}
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "profile/comparison.h"

namespace warpscope::report {

nlohmann::json profile_json(const std::vector<profile::KernelComparison>& kernels);

}  // namespace warpscope::report
