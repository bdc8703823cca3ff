// calibration_check.h: the model against measured single-instruction patterns.
//
// Each row (the calibration JSONL format: op, width, mask, offsets, metrics) is priced and
// every ncu counter the model predicts is compared with the measurement:
//   row 17  lds width 8 'k2' mask 0xffffffff: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld
//           predicted 2, measured 4
#pragma once

#include <string>
#include <vector>

#include "model/arch.h"
#include "support/expected.h"

namespace warpscope::jsonio {

struct Disagreement {
  int row = 0;           // 1-based line in the input
  std::string pattern;   // "lds width 8 'k2' mask 0xffffffff"
  std::string metric;
  long long predicted = 0;
  long long measured = 0;
};

struct CalibrationCheck {
  int rows = 0;
  int compared = 0;  // counters compared
  int agreeing_rows = 0;
  std::vector<Disagreement> disagreements;
  std::vector<std::string> unreadable;  // "row N: message"
};

// Checks every row of a calibration JSONL text.
CalibrationCheck check_calibration(const std::string& jsonl, const model::Arch& arch);

}  // namespace warpscope::jsonio
