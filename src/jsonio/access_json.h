// access_json.h: the `warpscope access --jsonl` wire format, read and written.
//
//   in : {"op": "lds", "width": 4, "mask": "0xffffffff", "offsets": [0, 4, ..., 124]}
//   out: {"line": 1, "op": "lds", "width": 4, "metrics": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld": 1,
//         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld": 0}, "wavefronts": 1, ...}
//   bad: {"line": 3, "error": "field 'offsets' must hold 32 numbers, found 31"}
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "model/access_cost.h"
#include "model/warp_access.h"
#include "support/expected.h"

namespace warpscope::jsonio {

// Parses one JSON object (one line of input) into a warp access. Never throws.
Expected<model::WarpAccess> parse_access(std::string_view text);

// Reads the access out of an already-parsed JSON value. Never throws.
Expected<model::WarpAccess> access_from_json(const nlohmann::json& value);

// The result object for one priced access (see the header comment).
nlohmann::json cost_to_json(const model::WarpAccess& access, const model::AccessCost& cost);

}  // namespace warpscope::jsonio
