// json_writer.h: the pattern report as data (a stable schema).
//
// {"arch": "sm_90", "block": [32, 8, 1],
//  "statements": [{"file", "line", "column", "text", "array", "space", "type", "element_bytes",
//                  "dims", "base", "op", "width", "loops", "iterations", "executions",
//                  "idle_executions", "totals": {...},
//    "behaviours": [{"warps": N (warp executions), "warp_ids": [...], "first": {"warp", "loops": {...}},
//                    "mask", "metrics": {ncu metric: value, as model::ncu_metrics},
//                    shared: "wavefronts", "ideal_wavefronts", "bank_conflicts", "worst_bank", "degree",
//                            "colliding_lanes", "banks": [words per bank], "diagram": [[lane|-1 per bank]],
//                            "diagram_groups": [{"first_lane", "last_lane", "first_row", "rows"}]
//                    global: "requests", "sectors", "ideal_sectors", "lines", "bytes_requested",
//                            "bytes_moved", "efficiency", "cause"
//                    "lanes": [{"lane", "active", "address", "word", "bank", ["banks"], ["colliding"]}
//                              | {"lane", "active", "address", "sector", "line"}]}]}]}
// Inactive lanes carry only "lane" and "active". "warps" counts warp executions.
#pragma once

#include <nlohmann/json.hpp>

#include "pattern/report.h"

namespace warpscope::pattern {

nlohmann::json json_report(const PatternReport& report);

}  // namespace warpscope::pattern
