// cli_test.cc: the command line, run in-process with string streams.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_run_test.h"
#include "cli/command.h"

namespace warpscope::cli {
namespace {

using test::CliRun;
using test::run;

std::string access_line(const std::string& op, int width, int stride) {
  std::string s = R"({"op":")" + op + R"(","width":)" + std::to_string(width) + R"(,"mask":"0xffffffff","offsets":[)";
  for (int i = 0; i < 32; ++i) s += (i ? "," : "") + std::to_string(i * stride);
  return s + "]}";
}

TEST(Cli, AccessJsonlAnswersEveryLineInOrder) {
  const CliRun r = run({"access", "--jsonl"}, access_line("lds", 4, 128) + "\n" + access_line("ldg", 4, 8) + "\n");
  EXPECT_EQ(r.status, 0) << r.err;
  std::istringstream lines(r.out);
  std::string first, second;
  std::getline(lines, first);
  std::getline(lines, second);
  const auto a = nlohmann::json::parse(first), b = nlohmann::json::parse(second);
  EXPECT_EQ(a["line"], 1);
  EXPECT_EQ(a["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"], 32);
  EXPECT_EQ(a["metrics"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"], 31);
  EXPECT_EQ(b["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld"], 1);
  EXPECT_EQ(b["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld"], 8);
}

TEST(Cli, MalformedLinesGiveErrorObjectsAndStatusTwo) {
  const CliRun r = run({"access", "--jsonl"}, "{\"op\":\n\n" + access_line("sts", 8, 8) + "\n\x01\xff garbage\n");
  EXPECT_EQ(r.status, 2);
  std::istringstream lines(r.out);
  std::vector<nlohmann::json> rows;
  for (std::string l; std::getline(lines, l);) rows.push_back(nlohmann::json::parse(l));
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0]["line"], 1);
  EXPECT_EQ(rows[0]["error"], "not valid JSON");
  EXPECT_EQ(rows[1]["error"], "empty line");
  EXPECT_EQ(rows[2]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"], 2);
  EXPECT_EQ(rows[3]["line"], 4);
  EXPECT_TRUE(rows[3].contains("error"));
}

TEST(Cli, AccessInWordsNamesTheCollidingLanes) {
  const CliRun r = run({"access"}, access_line("lds", 4, 8) + "\n");
  EXPECT_EQ(r.status, 0);
  EXPECT_EQ(r.out,
            "1: lds width 4 mask 0xffffffff: 2 wavefronts (ideal 1), 1 bank conflicts; worst: bank 0 2-way, lanes 0 16\n");
}

TEST(Cli, UnknownArchitectureIsAUsageError) {
  const CliRun r = run({"access", "--arch", "sm_12"}, "");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("unknown architecture 'sm_12'"), std::string::npos);
}

TEST(Cli, UnknownSubcommandIsAUsageError) {
  const CliRun r = run({"frobnicate"});
  EXPECT_EQ(r.status, 2);
}

TEST(Cli, PatternReportsAParseErrorWithACaret) {
  const CliRun r = run({"pattern", "-"}, "shared float s[32]\nload s[lane +* 2]\n");
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("<stdin>:2:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("^"), std::string::npos) << r.err;
}

TEST(Cli, CalibrateChecksMeasuredPatterns) {
  const std::string data = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/data/h200/single_instruction.jsonl";
  const CliRun r = run({"calibrate", "--measured", data.c_str()});
  EXPECT_EQ(r.status, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("329 of 329 patterns agree"), std::string::npos) << r.out;
}

std::string example(const std::string& name) { return std::string(WARPSCOPE_SOURCE_DIR) + "/examples/" + name; }

TEST(Cli, KernelJsonHasTotalsAndLines) {
  const std::string ptx = example("transpose_tiled.ptx");
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                        "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--json", "--no-sass"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"], 262144);
  EXPECT_EQ(j["metrics"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"], 253952);
  EXPECT_EQ(j["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_st"], 32768);
  ASSERT_FALSE(j["lines"].empty());
  EXPECT_EQ(j["lines"][0]["file"], "transpose_tiled.cu");
  EXPECT_EQ(j["lines"][0]["line"], 27);  // the 32-way column read, worst first
  EXPECT_EQ(j["lines"][0]["worst_warp"]["lanes"].size(), 32u);
  EXPECT_EQ(j["priced_from"], "ptx");
}

TEST(Cli, KernelTextNamesTheWorstLineAndItsLanes) {
  const std::string ptx = example("transpose_tiled.ptx");
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                        "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass",
                        "--no-diagnostics"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("256 of 256 blocks emulated"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld           253952"), std::string::npos);
  EXPECT_NE(r.out.find("transpose_tiled.cu:27            262144/8192"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("transpose_tiled.cu:27: 253952 excess wavefronts, 0 excess sectors"), std::string::npos);
  EXPECT_NE(r.out.find("32 wavefronts (ideal 1), 32-way in bank 0"), std::string::npos);
  EXPECT_NE(r.out.find("        31     3968     0  *"), std::string::npos) << r.out;  // lane 31's row of the listing
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(Cli, KernelHtmlListsTheCuSourceWithTheConflictMarked) {
  const std::string ptx = example("transpose_tiled.ptx");
  const std::string html = ::testing::TempDir() + "cli_test_transpose.html";
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                        "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass",
                        "--no-diagnostics", "--html", html.c_str()});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("transpose_tiled.cu:27: 253952 excess wavefronts"), std::string::npos);  // text still printed
  const std::string page = slurp(html);
  const std::size_t cu_lines = occurrences(slurp(example("transpose_tiled.cu")), "\n");
  EXPECT_EQ(occurrences(page, "<tr class=\"src-line"), cu_lines);  // every line of the .cu, nothing else
  EXPECT_NE(page.find("<tr class=\"src-line hot conflict\" data-target=\"acc-0\" data-line=\"27\""), std::string::npos);
  EXPECT_NE(page.find("<span class=\"deg\">32-way</span>"), std::string::npos);
  EXPECT_NE(page.find("data-banks=\"32\" data-wavefronts=\"32\""), std::string::npos);
}

TEST(Cli, KernelHtmlWithoutLocListsThePtxLineByLine) {
  // The tiled transpose without its .loc/.file lines: the report's lines are PTX lines.
  std::istringstream in(slurp(example("transpose_tiled.ptx")));
  const std::string stripped = ::testing::TempDir() + "cli_test_noloc.ptx";
  std::ofstream out(stripped, std::ios::binary);
  int lines = 0;
  for (std::string l; std::getline(in, l);)
    if (l.find(".loc") == std::string::npos && l.find(".file") == std::string::npos) {
      out << l << "\n";
      ++lines;
    }
  out.close();
  const std::string html = ::testing::TempDir() + "cli_test_noloc.html";
  const CliRun r = run({"kernel", stripped.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block",
                        "32,8", "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass",
                        "--no-diagnostics", "--html", html.c_str()});
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = slurp(html);
  EXPECT_EQ(occurrences(page, "<tr class=\"src-line"), static_cast<std::size_t>(lines));
  // The four unrolled column reads are four PTX lines, each 32-way, each with its own text.
  EXPECT_EQ(occurrences(page, "<span class=\"deg\">32-way</span>"), 4u);
  EXPECT_EQ(occurrences(r.out, "excess wavefronts, 0 excess sectors\n    | \tld.shared.f32"), 4u) << r.out;
}

TEST(Cli, KernelHtmlUnwritableIsAnError) {
  const std::string ptx = example("transpose_tiled.ptx");
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "1", "--block", "32,8",
                        "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:32", "--no-sass",
                        "--html", "/nonexistent-dir/x.html"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("warpscope: error: cannot write '/nonexistent-dir/x.html'"), std::string::npos) << r.err;
}

TEST(Cli, KernelSamplingScalesTotals) {
  const std::string ptx = example("transpose_tiled.ptx");
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                        "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--json", "--no-sass",
                        "--blocks", "25%"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["blocks_run"], 64);
  EXPECT_EQ(j["sampled"], true);
  EXPECT_EQ(j["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"], 262144);
}

TEST(Cli, KernelErrorsAreMessages) {
  const std::string ptx = example("transpose_tiled.ptx");
  const std::string cu = example("transpose_tiled.cu");
  struct Case {
    std::vector<std::string> args;
    std::string expected;
    int status;  // 2: the request was wrong (a usage error), 1: the input
  } cases[] = {
      {{"kernel", ptx.c_str(), "--kernel", "nope"}, "no kernel named 'nope'", 2},
      {{"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "0"}, "--grid: each dimension", 2},
      {{"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--block", "64,64"}, "at most 1024 threads", 2},
      {{"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--arg", "buf:16"}, "1 arguments given; kernel 'transpose_tiled_f32' takes u64", 2},
      {{"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--arg", "buf:64", "--arg", "buf:64", "--arg",
        "i32:4", "--blocks", "7-3"},
       "--blocks", 2},
      {{"kernel", "/nonexistent.ptx"}, "cannot read '/nonexistent.ptx'", 1},
  };
  for (const auto& c : cases) {
    const CliRun r = run(c.args);
    EXPECT_EQ(r.status, c.status) << c.expected;
    EXPECT_NE(r.err.find(c.expected), std::string::npos) << r.err;
  }
}

TEST(Cli, KernelOutOfBoundsIsDiagnosedNotCrashed) {
  const std::string ptx = example("transpose_tiled.ptx");
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                        "--arg", "buf:4096", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
}

// Diagnostics, SARIF and the --fail-on gate (docs/ci.md).
TEST(Cli, KernelGateFailsOnBankConflictsWithDiagnosticsAndSarif) {
  const std::string ptx = example("transpose_tiled.ptx");
  const std::string sarif = ::testing::TempDir() + "cli_test_transpose.sarif";
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                        "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass", "--fail-on",
                        "bank-conflicts", "--fail-on", "sector-efficiency<50%", "--sarif", sarif.c_str()});
  EXPECT_EQ(r.status, 3) << r.err;
  EXPECT_NE(r.err.find("transpose_tiled.cu:27:5: warning: 32-way shared-memory bank conflict loading 'tile' "
                       "(262144 wavefronts, ideal 8192)\n"),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("warpscope: --fail-on bank-conflicts: 253952 shared wavefronts beyond the ideal"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("--fail-on sector-efficiency"), std::string::npos) << r.err;  // coalesced: 100%
  std::ifstream file(sarif);
  const auto log = nlohmann::json::parse(file);
  EXPECT_EQ(log["version"], "2.1.0");
  const auto& result = log["runs"][0]["results"][0];
  EXPECT_EQ(result["ruleId"], "shared-bank-conflict");
  EXPECT_EQ(result["locations"][0]["physicalLocation"]["region"]["startLine"], 27);
  EXPECT_EQ(result["properties"]["wavefronts"], 262144);
}

TEST(Cli, KernelGatePassesOnThePaddedTranspose) {
  const std::string ptx = example("transpose_padded.ptx");
  // A --fail-on before FILE takes one condition, not FILE too.
  const CliRun r = run({"kernel", "--fail-on", "excess-sectors>0", ptx.c_str(), "--kernel",
                        "_Z16transpose_paddedIfEvPT_PKS0_i", "--grid", "16,16", "--block", "32,8", "--arg",
                        "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass", "--fail-on",
                        "bank-conflicts"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err.find("warning"), std::string::npos) << r.err;
}

TEST(Cli, KernelNoDiagnosticsKeepsStandardErrorQuiet) {
  const std::string ptx = example("transpose_tiled.ptx");
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block", "32,8",
                        "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass", "--blocks",
                        "0", "--no-diagnostics"});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(Cli, KernelBadFailOnIsAUsageError) {
  const std::string ptx = example("transpose_tiled.ptx");
  const CliRun r = run({"kernel", ptx.c_str(), "--kernel", "transpose_tiled_f32", "--fail-on", "sector-efficiency<80"});
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--fail-on 'sector-efficiency<80': an efficiency is 0 to 1"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace warpscope::cli
