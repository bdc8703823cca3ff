// calibration_check.cc: pricing measured rows and listing every disagreement.
#include "jsonio/calibration_check.h"

#include <sstream>

#include "jsonio/access_json.h"
#include "model/access_cost.h"

namespace warpscope::jsonio {

CalibrationCheck check_calibration(const std::string& jsonl, const model::Arch& arch) {
  CalibrationCheck check;
  std::istringstream in(jsonl);
  std::string line;
  for (int row = 1; std::getline(in, line); ++row) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const auto value = nlohmann::json::parse(line, nullptr, false);
    auto access = value.is_discarded() ? Expected<model::WarpAccess>(make_error("not valid JSON")) : access_from_json(value);
    if (!access) {
      check.unreadable.push_back("row " + std::to_string(row) + ": " + access.error().message);
      continue;
    }
    const auto metrics = value.find("metrics");
    if (metrics == value.end() || !metrics->is_object()) {
      check.unreadable.push_back("row " + std::to_string(row) + ": no measured metrics");
      continue;
    }
    ++check.rows;
    const model::AccessCost cost = model::price_valid(arch, *access);
    const std::string pattern = std::string(model::op_name(access->op)) + " width " + std::to_string(access->width) +
                                (value.contains("name") && value["name"].is_string() ? " '" + value["name"].get<std::string>() + "'" : "") +
                                " mask " + (value["mask"].is_string() ? value["mask"].get<std::string>() : value["mask"].dump());
    bool agrees = true;
    for (const auto& [name, predicted] : model::ncu_metrics(cost)) {
      const auto measured = metrics->find(name);
      if (measured == metrics->end() || !measured->is_number()) continue;
      ++check.compared;
      const auto m = measured->get<long long>();
      if (m != predicted) {
        agrees = false;
        check.disagreements.push_back({row, pattern, name, predicted, m});
      }
    }
    check.agreeing_rows += agrees;
  }
  return check;
}

}  // namespace warpscope::jsonio
