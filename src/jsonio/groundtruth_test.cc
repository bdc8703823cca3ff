// groundtruth_test.cc: the model reproduces every H200 measurement, exactly.
//
// tests/data/h200/single_instruction.jsonl: 329 patterns measured by the project's seed.
// tests/data/h200/calibration.jsonl: our own random and address-sharing patterns, measured
// with calib/probe.cu under ncu (bench/results/h200/calibration/ has the raw rounds).
// Every ncu counter in a row that the model predicts must match.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "jsonio/access_json.h"
#include "model/access_cost.h"

namespace warpscope {
namespace {

struct Tally {
  int rows = 0;
  int compared = 0;
};

Tally check_file(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  const model::Arch& arch = **model::find_arch("sm_90");
  Tally tally;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.empty()) continue;
    const auto row = nlohmann::json::parse(line);
    auto access = jsonio::access_from_json(row);
    if (!access.ok()) {
      ADD_FAILURE() << path << ":" << line_no << ": " << access.error().message;
      continue;
    }
    const auto cost = model::price(arch, *access);
    if (!cost.ok()) {
      ADD_FAILURE() << path << ":" << line_no << ": " << cost.error().message;
      continue;
    }
    const auto& measured = row.at("metrics");
    ++tally.rows;
    for (const auto& [name, predicted] : model::ncu_metrics(*cost)) {
      if (!measured.contains(name)) continue;
      ++tally.compared;
      EXPECT_EQ(predicted, measured.at(name).get<long long>())
          << path << ":" << line_no << " " << row.at("op") << " width " << row.at("width") << " '"
          << row.value("name", "") << "' mask " << row.at("mask") << ": " << name;
    }
  }
  return tally;
}

TEST(GroundTruth, SingleInstructionPatternsFromTheSeed) {
  const Tally t = check_file(std::string(WARPSCOPE_TEST_DATA) + "/h200/single_instruction.jsonl");
  EXPECT_EQ(t.rows, 329);
  EXPECT_EQ(t.compared, 2 * 329);  // two predicted counters per row
}

TEST(GroundTruth, OwnCalibrationPatterns) {
  const Tally t = check_file(std::string(WARPSCOPE_TEST_DATA) + "/h200/calibration.jsonl");
  EXPECT_GE(t.rows, 1500);
  EXPECT_GE(t.compared, 2 * t.rows);
}

}  // namespace
}  // namespace warpscope
