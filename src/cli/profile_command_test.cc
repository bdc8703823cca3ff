// profile_command_test.cc: `warpscope profile` on real H200 exports (tests/data/ncu/), on
// tampered copies of them, and through a stand-in ncu script for the run path.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_run_test.h"
#include "cli/command.h"

namespace warpscope::cli {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::run;

const std::string kRoot = WARPSCOPE_SOURCE_DIR;
std::string ncu_data(const std::string& name) { return kRoot + "/tests/data/ncu/" + name; }
std::string sass(const std::string& name) { return kRoot + "/tests/data/sass/" + name; }
const std::string kLaunches = kRoot + "/examples/launches.txt";

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A scratch folder per test.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("warpscope-profile-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// The raw page with one metric's value replaced (the export's 3rd line is the kernel's row).
std::string tamper(const std::string& raw, const std::string& metric, const std::string& value) {
  std::istringstream lines(raw);
  std::string header, units, row;
  std::getline(lines, header);
  std::getline(lines, units);
  std::getline(lines, row);
  auto split = [](const std::string& line) {
    std::vector<std::string> cells;
    const std::string body = line.substr(1, line.size() - 2);  // drop the outer quotes
    for (std::size_t at = 0;;) {
      const std::size_t next = body.find("\",\"", at);
      cells.push_back(body.substr(at, next == std::string::npos ? std::string::npos : next - at));
      if (next == std::string::npos) break;
      at = next + 3;
    }
    return cells;
  };
  const auto names = split(header);
  auto cells = split(row);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == metric + ".sum") cells[i] = value;
  std::string out = header + "\n" + units + "\n\"";
  for (std::size_t i = 0; i < cells.size(); ++i) out += (i ? "\",\"" : "") + cells[i];
  return out + "\"\n";
}

const nlohmann::json* figure(const nlohmann::json& list, const std::string& name) {
  for (const auto& f : list)
    if (f["name"] == name) return &f;
  return nullptr;
}

TEST(ProfileCommand, ImportedH200ExportAgreesWithThePrediction) {
  const CliRun r = run({"profile", "--import", ncu_data("transpose_tiled_f32.raw.csv"), "--launches", kLaunches,
                        "--sass-listing", sass("transpose_tiled.sass"), "--json"});
  ASSERT_EQ(r.status, 0) << r.err << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["kernels"].size(), 1u);
  const auto& k = j["kernels"][0];
  EXPECT_EQ(k["predicted"], true);
  EXPECT_EQ(k["differences"], 0);
  EXPECT_NE(k["launch"].get<std::string>().find("transpose_tiled_f32: "), std::string::npos);
  const auto* ld = figure(k["metrics"], "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld");
  ASSERT_NE(ld, nullptr);
  EXPECT_EQ((*ld)["measured"], 262144);
  EXPECT_EQ((*ld)["predicted"], 262144);
  EXPECT_EQ(k["source_page"], true);  // transpose_tiled_f32.source.csv, found beside the raw page
  bool line27 = false;
  for (const auto& l : k["lines"])
    if (l["file"] == "transpose_tiled.cu" && l["line"] == 27) {
      line27 = true;
      EXPECT_EQ((*figure(l["figures"], "L1 Wavefronts Shared"))["measured"], 262144);
      EXPECT_EQ((*figure(l["figures"], "L1 Wavefronts Shared"))["predicted"], 262144);
    }
  EXPECT_TRUE(line27);
  EXPECT_EQ(j["summary"]["agree"], 1);
}

TEST(ProfileCommand, TamperedWavefrontsAreAnUnexplainedDifference) {
  const fs::path dir = scratch("tampered");
  std::ofstream(dir / "transpose_tiled_f32.raw.csv")
      << tamper(slurp(ncu_data("transpose_tiled_f32.raw.csv")), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld", "262,100");
  const CliRun r = run({"profile", "--import", (dir / "transpose_tiled_f32.raw.csv").string(), "--launches", kLaunches,
                        "--sass-listing", sass("transpose_tiled.sass")});
  EXPECT_EQ(r.status, 4) << r.err;
  const std::size_t at = r.out.find("  l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld ");
  ASSERT_NE(at, std::string::npos) << r.out;
  std::istringstream row(r.out.substr(at, r.out.find('\n', at) - at));
  std::string name, measured, predicted, difference, mark;
  row >> name >> measured >> predicted >> difference >> mark;
  EXPECT_EQ(measured, "262100");
  EXPECT_EQ(predicted, "262144");
  EXPECT_EQ(difference, "-44");
  EXPECT_EQ(mark, "UNEXPLAINED");
  EXPECT_NE(r.out.find("(no Source page for this launch"), std::string::npos);
  EXPECT_NE(r.out.find("1 figure differ, 1 unexplained"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(ProfileCommand, TamperedConflictCounterIsExplainedAsArbitration) {
  const fs::path dir = scratch("arbitration");
  std::ofstream(dir / "transpose_tiled_f32.raw.csv")
      << tamper(slurp(ncu_data("transpose_tiled_f32.raw.csv")), "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld",
                "254,000");
  const CliRun r = run({"profile", "--import", (dir / "transpose_tiled_f32.raw.csv").string(), "--launches", kLaunches,
                        "--sass-listing", sass("transpose_tiled.sass"), "--json"});
  EXPECT_EQ(r.status, 0) << r.err;
  const auto k = nlohmann::json::parse(r.out)["kernels"][0];
  const auto* f = figure(k["metrics"], "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ((*f)["difference"], 48);
  EXPECT_NE((*f)["explanation"].get<std::string>().find("arbitration"), std::string::npos);
  EXPECT_EQ(k["unexplained"], 0);
  fs::remove_all(dir);
}

TEST(ProfileCommand, InlinedCallSiteDifferenceIsExplained) {
  // The known per-line difference of tests/data/h200/examples_known_differences.txt.
  const CliRun r = run({"profile", "--import", ncu_data("histogram256_rank.raw.csv"), "--launches", kLaunches,
                        "--sass-listing", sass("histogram.sass")});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("histogram.cu:35"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("0 vs 18399"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("2 figures differ, 0 unexplained"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[1] inlined code"), std::string::npos) << r.out;
}

TEST(ProfileCommand, TemplateKernelMatchesItsMangledLaunch) {
  const CliRun r = run({"profile", "--import", ncu_data("transpose_padded_f32.raw.csv"), "--launch",
                        kRoot + "/examples/transpose_padded.ptx --kernel _Z16transpose_paddedIfEvPT_PKS0_i --grid 16,16 "
                                "--block 32,8 --arg buf:1048576 --arg buf:1048576 --arg i32:512",
                        "--sass-listing", sass("transpose_padded.sass"), "--json"});
  EXPECT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernels"][0]["name"], "void transpose_padded<float>(T1 *, const T1 *, int)");
  EXPECT_EQ(j["kernels"][0]["predicted"], true);
  EXPECT_EQ(j["kernels"][0]["differences"], 0);
}

TEST(ProfileCommand, KernelWithoutALaunchIsMeasuredOnly) {
  const CliRun r = run({"profile", "--import", ncu_data("transpose_tiled_f32.raw.csv")});
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("measured only: no launch line for it"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), std::string::npos);
  // A launch of the same kernel with another grid is named in the reason.
  const CliRun other = run({"profile", "--import", ncu_data("transpose_tiled_f32.raw.csv"), "--launch",
                            kRoot + "/examples/transpose_tiled.ptx --kernel transpose_tiled_f32 --grid 8,8 --block 32,8 "
                                    "--arg buf:1048576 --arg buf:1048576 --arg i32:256"});
  EXPECT_NE(other.out.find("no launch given fits it (ncu measured grid 16,16,1 block 32,8,1 dyn-smem 0); of the same name"),
            std::string::npos)
      << other.out;
}

TEST(ProfileCommand, SameShapeLaunchesAreAmbiguousUnlessTheProgramOrALaunchNamesOne) {
  // copy_strided_1/2/4/32 share kernel, grid and block; only the stride argument differs.
  const fs::path dir = scratch("ambiguous");
  fs::copy_file(kRoot + "/tests/data/ncu/transpose_tiled_f32.raw.csv", dir / "measured.raw.csv");
  std::string raw = slurp((dir / "measured.raw.csv").string());
  for (const auto& [from, to] : {std::pair<std::string, std::string>{"\"transpose_tiled_f32\"", "\"copy_strided\""},
                                 {"\"(16, 16, 1)\",\"0\"", "\"(128, 1, 1)\",\"0\""},
                                 {"\"(32, 8, 1)\"", "\"(256, 1, 1)\""}})
    raw.replace(raw.find(from), from.size(), to);
  std::ofstream(dir / "measured.raw.csv") << raw;
  const CliRun ambiguous = run({"profile", "--import", (dir / "measured.raw.csv").string(), "--launches", kLaunches});
  EXPECT_NE(ambiguous.out.find("4 launches fit its name, grid and block (copy_strided_1, copy_strided_2, copy_strided_4, "
                               "copy_strided_32): name the one that ran with --launch"),
            std::string::npos)
      << ambiguous.out << ambiguous.err;
  const CliRun named = run({"profile", "--import", (dir / "measured.raw.csv").string(), "--launches", kLaunches, "--launch",
                            kRoot + "/examples/copy_strided.ptx --kernel copy_strided --grid 128 --block 256 "
                                    "--arg buf:262144 --arg buf:262144 --arg i32:2"});
  EXPECT_NE(named.out.find("launch    " + kRoot + "/examples/copy_strided.ptx"), std::string::npos) << named.out;
  fs::remove_all(dir);
}

TEST(ProfileCommand, UsageAndMissingNcu) {
  const CliRun none = run({"profile"});
  EXPECT_EQ(none.status, 2);
  EXPECT_NE(none.err.find("give the program to profile after '--'"), std::string::npos);
  const CliRun missing = run({"profile", "--ncu", "/nonexistent/ncu", "--", "./a.out"});
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("ncu was not found at '/nonexistent/ncu'"), std::string::npos) << missing.err;
  const CliRun bad = run({"profile", "--import", "/nonexistent.csv"});
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.err.find("cannot read '/nonexistent.csv'"), std::string::npos);
  const CliRun not_csv = run({"profile", "--import", kLaunches});
  EXPECT_EQ(not_csv.status, 1);
  EXPECT_NE(not_csv.err.find("not an ncu raw-page CSV"), std::string::npos) << not_csv.err;
}

// A stand-in for ncu: collection writes an empty report, exports print the H200 fixtures;
// `mode` "denied" answers as ncu does without access to the counters.
fs::path fake_ncu(const fs::path& dir, const std::string& mode) {
  const fs::path script = dir / "ncu";
  std::ofstream s(script);
  s << "#!/bin/sh\n"
       "echo \"$@\" >> " << (dir / "calls.txt").string() << "\n";
  if (mode == "no-atom-metrics")  // an ncu that does not know the global atomic counters
    s << "case \"$*\" in *global_op_atom*) echo '==ERROR== Failed to find metric l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum'; "
         "exit 1 ;; esac\n";
  if (mode == "no-kernel") s << "echo '==WARNING== No kernels were profiled.'\nexit 0\n";
  if (mode == "denied")
    s << "echo '==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters'\n"
         "exit 1\n";
  s << "case \"$*\" in\n"
       "  *'--page raw'*) cat " << ncu_data("transpose_tiled_f32.raw.csv") << " ;;\n"
       "  *'--page source'*) cat " << ncu_data("transpose_tiled_f32.source.csv") << " ;;\n"
       "  *) while [ \"$1\" != -o ]; do shift; done; : > \"$2.ncu-rep\"; echo '==PROF== Profiling \"k\" - 0: 100%' ;;\n"
       "esac\n";
  s.close();
  ::chmod(script.c_str(), 0755);
  return script;
}

TEST(ProfileCommand, RunsNcuOnAPtxlaunchCommandLineAndUsesItsArguments) {
  const fs::path dir = scratch("run");
  const fs::path ncu = fake_ncu(dir, "ok");
  const CliRun r = run({"profile", "--ncu", ncu.string(), "--sass-listing", sass("transpose_tiled.sass"), "--verbose", "--",
                        "tools/ptxlaunch/ptxlaunch", kRoot + "/examples/transpose_tiled.ptx", "--kernel", "transpose_tiled_f32",
                        "--grid", "16,16", "--block", "32,8", "--arg", "buf:1048576", "--arg", "buf:1048576:zero", "--arg",
                        "i32:512"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("agrees: every figure measured equals its prediction"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("launch    " + kRoot + "/examples/transpose_tiled.ptx --kernel transpose_tiled_f32"), std::string::npos);
  const std::string calls = slurp((dir / "calls.txt").string());
  EXPECT_NE(calls.find("--clock-control none"), std::string::npos) << calls;
  EXPECT_NE(calls.find("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"), std::string::npos);
  EXPECT_NE(calls.find("--section SourceCounters"), std::string::npos);
  EXPECT_NE(calls.find("tools/ptxlaunch/ptxlaunch"), std::string::npos);
  EXPECT_NE(calls.find("--page source --csv --print-source cuda,sass"), std::string::npos);
  EXPECT_NE(r.err.find("running: " + ncu.string() + " --clock-control none"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

TEST(ProfileCommand, UnknownMetricsAreLeftOutAndTheSourcePageKept) {
  const fs::path dir = scratch("no-atom");
  const fs::path ncu = fake_ncu(dir, "no-atom-metrics");
  const CliRun r = run({"profile", "--ncu", ncu.string(), "--sass-listing", sass("transpose_tiled.sass"), "--",
                        "ptxlaunch", kRoot + "/examples/transpose_tiled.ptx", "--kernel", "transpose_tiled_f32", "--grid",
                        "16,16", "--block", "32,8", "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512"});
  EXPECT_EQ(r.status, 0) << r.err << r.out;
  std::ifstream calls(dir / "calls.txt");
  std::vector<std::string> lines;
  for (std::string l; std::getline(calls, l);) lines.push_back(l);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_NE(lines[0].find("global_op_atom"), std::string::npos);
  EXPECT_EQ(lines[1].find("global_op_atom"), std::string::npos);
  EXPECT_NE(lines[1].find("--section SourceCounters"), std::string::npos);
  EXPECT_NE(r.out.find("transpose_tiled.cu:27"), std::string::npos) << r.out;
  fs::remove_all(dir);
}

TEST(ProfileCommand, CountersOutOfReachSaySoWithoutRetrying) {
  const fs::path dir = scratch("denied");
  const fs::path ncu = fake_ncu(dir, "denied");
  const CliRun r = run({"profile", "--ncu", ncu.string(), "--keep", (dir / "work").string(), "--", "./a.out"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("ncu cannot read the GPU's counters here"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("ERR_NVGPUCTRPERM"), std::string::npos);
  std::ifstream calls(dir / "calls.txt");
  int n = 0;
  for (std::string l; std::getline(calls, l);) ++n;
  EXPECT_EQ(n, 1);
  const fs::path none = scratch("no-kernel");
  const CliRun r2 = run({"profile", "--ncu", fake_ncu(none, "no-kernel").string(), "--keep", (none / "work").string(), "--",
                         "./a.out"});
  EXPECT_EQ(r2.status, 1);
  EXPECT_NE(r2.err.find("ncu profiled no kernel: did the program launch one"), std::string::npos) << r2.err;
  EXPECT_EQ(r2.err.find("counters"), std::string::npos) << r2.err;
  fs::remove_all(dir);
  fs::remove_all(none);
}

}  // namespace
}  // namespace warpscope::cli
