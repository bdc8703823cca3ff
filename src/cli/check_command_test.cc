// check_command_test.cc: `warpscope check`: a launches file gated as CI would, run in-process.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_run_test.h"

namespace warpscope::cli {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::run;
std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A project of its own: two of the examples' kernels copied beside a launches file whose
// paths are relative to it (run from another folder).
class Check : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("warpscope-check-" + std::to_string(::getpid()));
    fs::create_directories(dir_ / "kernels");
    const fs::path examples = fs::path(WARPSCOPE_SOURCE_DIR) / "examples";
    for (const char* f : {"transpose_tiled.ptx", "transpose_tiled.cu", "transpose_padded.ptx", "transpose_padded.cu"})
      fs::copy_file(examples / f, dir_ / "kernels" / f, fs::copy_options::overwrite_existing);
    launches_ = (dir_ / "launches.txt").string();
    std::ofstream(launches_)
        << "# two transposes, n = 128\n"
           "tiled    kernels/transpose_tiled.ptx --kernel transpose_tiled_f32 --grid 4,4 --block 32,8 --arg buf:64K "
           "--arg buf:64K --arg i32:128\n"
           "padded   kernels/transpose_padded.ptx --kernel _Z16transpose_paddedIfEvPT_PKS0_i --grid 4,4 --block 32,8 "
           "--arg buf:64K --arg buf:64K --arg i32:128\n";
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::vector<std::string> check(std::vector<std::string> more) {
    std::vector<std::string> w{"check", launches_, "--no-sass", "-q"};
    w.insert(w.end(), more.begin(), more.end());
    return w;
  }
  fs::path dir_;
  std::string launches_;
};

TEST_F(Check, EveryLaunchInOneTableAndOneStatus) {
  const CliRun r = run(check({}));
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("warpscope check " + launches_ + ": 2 launches\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("  tiled   transpose_tiled_f32             16896/1024       15872              4096/4096  ok\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("  padded  transpose_padded<float>          1024/1024           0              4096/4096  ok\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("2 launches: 2 ok, 0 failed a --fail-on condition, 0 worse than the baseline, 0 could not run"),
            std::string::npos);
}

TEST_F(Check, FailOnConditionsOnKernelsLinesAndArrays) {
  const CliRun kernel = run(check({"--fail-on", "bank-conflicts"}));
  EXPECT_EQ(kernel.status, 3);
  EXPECT_NE(kernel.out.find("tiled (" + launches_ + ":2):\n  --fail-on bank-conflicts: 15872 shared wavefronts beyond "
                            "the ideal\n  to see why and what would fix it: warpscope fix " +
                            (dir_ / "kernels/transpose_tiled.ptx").string()),
            std::string::npos)
      << kernel.out;
  EXPECT_NE(kernel.out.find("1 ok, 1 failed"), std::string::npos);
  const CliRun line = run(check({"--fail-on", "line transpose_tiled.cu:27 bank-conflicts"}));
  EXPECT_EQ(line.status, 3);
  EXPECT_NE(line.out.find("--fail-on line transpose_tiled.cu:27 bank-conflicts: 15872 shared wavefronts beyond"),
            std::string::npos)
      << line.out;
  EXPECT_EQ(run(check({"--fail-on", "line transpose_tiled.cu:22 bank-conflicts"})).status, 0);
  const CliRun array = run(check({"--fail-on", "array tile excess-wavefronts>0"}));
  EXPECT_EQ(array.status, 3);
  EXPECT_NE(array.out.find("--fail-on array tile excess-wavefronts>0: 15872 excess shared wavefronts, above 0"),
            std::string::npos)
      << array.out;
  // A condition that names nothing in any launch cannot pass silently.
  const CliRun typo = run(check({"--fail-on", "array tyle bank-conflicts"}));
  EXPECT_EQ(typo.status, 3);
  EXPECT_NE(typo.out.find("note: --fail-on array tyle bank-conflicts names a line or array no launch has"),
            std::string::npos)
      << typo.out;
  EXPECT_EQ(run(check({"--fail-on", "bank-conflicts<3"})).status, 2);
}

TEST_F(Check, ABaselineFailsOnlyOnFiguresThatGotWorse) {
  const CliRun saved = run(check({"--json"}));
  ASSERT_EQ(saved.status, 0) << saved.err;
  const fs::path baseline = dir_ / "baseline.json";
  std::ofstream(baseline) << saved.out;
  EXPECT_EQ(run(check({"--baseline", baseline.string()})).status, 0);
  // A baseline where the tiled transpose was better: its kernel total and line 27 regressed.
  auto j = nlohmann::json::parse(saved.out);
  for (auto& l : j["launches"])
    if (l["name"] == "tiled") {
      l["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"] = 512;
      for (auto& line : l["lines"])
        if (line["line"] == 27) line["metrics"]["L1 Wavefronts Shared"] = 512;
    }
  std::ofstream(baseline) << j.dump();
  const CliRun worse = run(check({"--baseline", baseline.string()}));
  EXPECT_EQ(worse.status, 3);
  EXPECT_NE(worse.out.find("  worse than the baseline: l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld: 512 -> 16384\n"),
            std::string::npos)
      << worse.out;
  EXPECT_NE(worse.out.find("worse than the baseline: transpose_tiled.cu:27 shared wavefronts: 512 -> 16384\n"),
            std::string::npos)
      << worse.out;
  EXPECT_NE(worse.out.find("transpose_tiled.cu:27 excess shared wavefronts: 0 -> 15872"), std::string::npos);
  EXPECT_NE(worse.out.find("1 ok, 0 failed a --fail-on condition, 1 worse than the baseline"), std::string::npos);
  // A figure that got better is no failure.
  for (auto& l : j["launches"])
    if (l["name"] == "tiled") l["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"] = 999999;
  for (auto& l : j["launches"])
    for (auto& line : l["lines"]) line["metrics"]["L1 Wavefronts Shared"] = 999999;
  std::ofstream(baseline) << j.dump();
  EXPECT_EQ(run(check({"--baseline", baseline.string()})).status, 0);
  std::ofstream(baseline) << "{\"not\": \"a check\"}";
  const CliRun bad = run(check({"--baseline", baseline.string()}));
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("is not the output of `warpscope check --json`"), std::string::npos) << bad.err;
}

TEST_F(Check, ALaunchThatCannotRunIsAnErrorAndTheOthersStillRun) {
  std::ofstream(launches_, std::ios::app)
      << "broken   kernels/transpose_tiled.ptx --kernel transpose_tiled_f32 --grid 4,4 --block 32,8 --arg buf:1K "
         "--arg buf:64K --arg i32:128\n"
         "missing  kernels/nope.ptx --kernel k\n";
  const CliRun r = run(check({}));
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.out.find("broken (" + launches_ + ":4):\n  could not run: the emulation stopped: out-of-bounds"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("missing (" + launches_ + ":5):\n  could not run: cannot read"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4 launches: 2 ok, 0 failed a --fail-on condition, 0 worse than the baseline, 2 could not run"),
            std::string::npos);
}

TEST_F(Check, SarifHasOneRunPerLaunch) {
  const fs::path sarif = dir_ / "check.sarif";
  ASSERT_EQ(run(check({"--sarif", sarif.string(), "--launch", "tiled", "--launch", "padded"})).status, 0);
  const auto j = nlohmann::json::parse(slurp(sarif));
  ASSERT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["runs"][0]["properties"]["launch"], "tiled");
  EXPECT_EQ(j["runs"][0]["results"][0]["ruleId"], "shared-bank-conflict");
  EXPECT_EQ(j["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"], 27);
  EXPECT_TRUE(j["runs"][1]["results"].empty());
  EXPECT_EQ(run(check({"--launch", "nope"})).status, 2);
}

}  // namespace
}  // namespace warpscope::cli
