// cli_usage_test.cc: what a new user meets first: --version, --help, exit statuses, and the
// messages for launches that cannot run (issue 16's "Command line").
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_run_test.h"
#include "cli/command.h"
#include "cli/version.h"
#include "driver/process.h"

#include <nlohmann/json.hpp>

namespace warpscope::cli {
namespace {

namespace fs = std::filesystem;

using test::CliRun;
using test::run;

const std::string kRoot = WARPSCOPE_SOURCE_DIR;
const std::string kTiled = kRoot + "/examples/transpose_tiled.ptx";

// The tiled transpose's launch with `change` added (its own --grid or --block replace these).
std::vector<std::string> tiled(std::vector<std::string> change) {
  std::vector<std::string> w{"kernel", kTiled, "--kernel", "transpose_tiled_f32", "--no-sass", "-q"};
  if (std::find(change.begin(), change.end(), "--grid") == change.end()) w.insert(w.end(), {"--grid", "16,16"});
  if (std::find(change.begin(), change.end(), "--block") == change.end()) w.insert(w.end(), {"--block", "32,8"});
  w.insert(w.end(), change.begin(), change.end());
  return w;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("warpscope-usage-" + name + "-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

int line_count(const std::string& s) { return static_cast<int>(std::count(s.begin(), s.end(), '\n')); }

TEST(Version, NamesTheVersionAndTheCommit) {
  for (const char* flag : {"--version", "-V"}) {
    const CliRun r = run({flag});
    EXPECT_EQ(r.status, 0);
    EXPECT_EQ(r.out, std::string("warpscope ") + version() + " (commit " + build_commit() + ")\n");
  }
  // Built from this checkout: a commit id (maybe -dirty); elsewhere the fallback says so.
  EXPECT_TRUE(std::regex_match(build_commit(), std::regex("[0-9a-f]{12}(-dirty)?")) ||
              std::string(build_commit()) == "unknown (not built from a git checkout)")
      << build_commit();
  EXPECT_TRUE(std::regex_match(version(), std::regex("[0-9]+\\.[0-9]+\\.[0-9]+")));
  EXPECT_NE(run({"--help"}).out.find("-V,--version"), std::string::npos);
}

TEST(ExitStatus, UsageErrorsAreTwo) {
  const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
      {tiled({"--grid", "16x16", "--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:512"}), "--grid: '16x16'"},
      {tiled({"--block", "0", "--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:512"}), "--block: each dimension"},
      {tiled({"--block", "64,32", "--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:512"}), "at most 1024 threads"},
      {tiled({"--arg", "buf:1M", "--arg", "buf:1M"}), "2 arguments given"},
      {tiled({"--arg", "buf:1M", "--arg", "buf:1M", "--arg", "f32:1"}), "parameter 'transpose_tiled_f32_param_2' is u32"},
      {{"kernel", kTiled, "--grid", "16,16", "--block", "32,8", "--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:512"},
       "name one with --kernel"},
      {{"kernel", kTiled, "--kernel", "nope", "--arg", "buf:1M"}, "no kernel named 'nope'"},
      {tiled({"--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:512", "--blocks", "999"}), "--blocks"},
  };
  for (const auto& [words, message] : cases) {
    const CliRun r = run(words);
    EXPECT_EQ(r.status, 2) << message << "\n" << r.err;
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(ExitStatus, HugeBuffersAndOutOfRangeScalarsSaySo) {
  const CliRun huge = run(tiled({"--arg", "buf:18446744073709551615", "--arg", "buf:1M", "--arg", "i32:512"}));
  EXPECT_EQ(huge.status, 2);
  EXPECT_NE(huge.err.find("is more than warpscope allows: the buffers of one launch hold at most 16 GiB"),
            std::string::npos)
      << huge.err;
  const CliRun range = run(tiled({"--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:99999999999"}));
  EXPECT_EQ(range.status, 2);
  EXPECT_NE(range.err.find("99999999999 is out of range for i32 (-2147483648 to 2147483647)"), std::string::npos)
      << range.err;
}

TEST(ExitStatus, SuffixedSizesRunTheSameLaunch) {
  const CliRun plain = run(tiled({"--json", "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512"}));
  const CliRun suffixed = run(tiled({"--json", "--arg", "buf:1M", "--arg", "buf:1024K", "--arg", "i32:512"}));
  EXPECT_EQ(plain.status, 0) << plain.err;
  EXPECT_EQ(suffixed.status, 0) << suffixed.err;
  auto metrics = [](const std::string& json) { return json.substr(0, json.find("\"seconds\"")); };
  EXPECT_EQ(metrics(plain.out), metrics(suffixed.out));
}

TEST(ExitStatus, APtxWithoutKernelsSaysSo) {
  const fs::path dir = scratch("noentry");
  const fs::path ptx = dir / "lib.ptx";
  std::ofstream(ptx) << ".version 8.0\n.target sm_90\n.address_size 64\n.func f()\n{\nret;\n}\n";
  const CliRun r = run({"kernel", ptx.string(), "--block", "32"});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(r.err, "warpscope: error: no .entry in " + ptx.string() +
                       ": the PTX defines no kernel (only device functions or data)\n");
  fs::remove_all(dir);
}

TEST(ExitStatus, CudaSourceOnStandardInputNeedsLangCu) {
  const std::string cu = "extern \"C\" __global__ void k(float* p) { p[threadIdx.x] = 1; }\n";
  const CliRun r = run({"kernel", "-", "--block", "32", "--arg", "buf:128"}, cu);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("standard input ('-') is read as PTX, and it looks like CUDA source: give --lang cu"),
            std::string::npos)
      << r.err;
  if (driver::find_on_path("nvcc").empty()) GTEST_SKIP() << "nvcc not on PATH";
  const CliRun cu_run = run({"kernel", "-", "--lang", "cu", "--block", "32", "--arg", "buf:128", "--no-sass"}, cu);
  EXPECT_EQ(cu_run.status, 0) << cu_run.err;
  EXPECT_NE(cu_run.out.find("l1tex__t_sectors_pipe_lsu_mem_global_op_st                          4"), std::string::npos)
      << cu_run.out;
}

TEST(ExitStatus, NvccArgumentsReachNvccAndItsMessagesReachTheUser) {
  if (driver::find_on_path("nvcc").empty()) GTEST_SKIP() << "nvcc not on PATH";
  const fs::path dir = scratch("nvcc");
  fs::create_directories(dir / "include");
  std::ofstream(dir / "include" / "tile.cuh") << "#define TILE 32\n";
  const fs::path cu = dir / "k.cu";
  std::ofstream(cu) << "#include \"tile.cuh\"\nextern \"C\" __global__ void k(float* out) {\n"
                       "  out[threadIdx.x * TILE / 32] = SCALE;\n}\n";
  const CliRun missing = run({"kernel", cu.string(), "--block", "32", "--arg", "buf:128", "--no-sass"});
  EXPECT_EQ(missing.status, 1);
  EXPECT_NE(missing.err.find("nvcc could not compile '" + cu.string() + "' (nvcc -arch=sm_90 -lineinfo -ptx"),
            std::string::npos)
      << missing.err;
  EXPECT_NE(missing.err.find("tile.cuh: No such file or directory"), std::string::npos) << missing.err;
  const CliRun given = run({"kernel", cu.string(), "--block", "32", "--arg", "buf:128", "--no-sass",
                            "--nvcc-arg=-I" + (dir / "include").string(), "--nvcc-arg", "-DSCALE=2.0f"});
  EXPECT_EQ(given.status, 0) << given.err;
  fs::remove_all(dir);
}

TEST(Calibrate, AFileThatIsNotCalibrationDataIsOneInputError) {
  const fs::path dir = scratch("calib");
  const fs::path text = dir / "notes.json";
  std::ofstream out(text);
  for (int i = 0; i < 500; ++i) out << "not json " << i << "\n";
  out.close();
  const CliRun r = run({"calibrate", "--measured", text.string()});
  EXPECT_EQ(r.status, 1);
  EXPECT_EQ(line_count(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(text.string() + " is not calibration JSON lines (op, width, mask, offsets, metrics): row 1: "
                                       "not valid JSON (and 499 more rows like it)"),
            std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  const CliRun absent = run({"calibrate", "--measured", (dir / "absent.jsonl").string()});
  EXPECT_EQ(absent.status, 1);
  EXPECT_EQ(line_count(absent.err), 1) << absent.err;
  fs::remove_all(dir);
}

TEST(Help, TheLaunchGrammarIsInTheHelp) {
  const CliRun r = run({"kernel", "--help"});
  EXPECT_EQ(r.status, 0);
  for (const char* needle : {"powers of 1024", "fill:<size>[:<type>]:<value>", "iota:<count>:<type>",
                             "rand:<count>:<type>:<seed>[:<lo>:<hi>]", "struct:<field>,<field>,...", "bytes:<hex>",
                             "f16 bf16", "--nvcc-arg", "--lang", "2 usage error"})
    EXPECT_NE(r.out.find(needle), std::string::npos) << needle;
  EXPECT_NE(run({"fix", "--help"}).out.find("powers of 1024"), std::string::npos);
}

}  // namespace
}  // namespace warpscope::cli

namespace warpscope::cli {
namespace {

const std::string kHistogram = kRoot + "/examples/histogram.ptx";
const std::string kInput = kRoot + "/examples/data/histogram_input.bin";

TEST(Messages, InlinedAtomicsAreFoundAtTheCallSite) {
  const CliRun r = run({"kernel", kHistogram, "--kernel", "histogram256_rank", "--grid", "32", "--block", "256", "--arg",
                        "buf:1024", "--arg", "buf:262144", "--arg", "file:" + kInput, "--arg", "i32:65536", "--no-sass",
                        "-q"});
  EXPECT_EQ(r.status, 0) << r.err;
  // The table keeps ncu's header line, says where it is counted too; the findings are the user's line.
  EXPECT_NE(r.out.find("  device_atomic_functions.hpp:112 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(inlined: also counted at histogram.cu:35, histogram.cu:37)"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("histogram.cu:35:5: warning: 18-way shared-memory bank conflict in atomics on 's_hist'"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("device_atomic_functions"), std::string::npos) << r.err;
  // The next step, for this very launch.
  EXPECT_NE(r.out.find("\n  warpscope fix " + kHistogram + " --kernel histogram256_rank --grid 32 --block 256 --arg "
                       "buf:1024 --arg buf:262144 --arg file:" + kInput + " --arg i32:65536 --no-sass\n"),
            std::string::npos)
      << r.out;
}

TEST(Messages, DiagnosticsPointAtTheSourceAndThePtxLineOnlyWhenVerbose) {
  const std::vector<std::string> launch{"kernel", kRoot + "/examples/reduce_sequential.ptx", "--kernel",
                                        "reduce_sequential", "--grid", "1", "--block", "256", "--arg", "buf:8",
                                        "--arg", "buf:2048", "--no-sass", "-q"};
  const CliRun r = run(launch);
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("at reduce_sequential.cu:12:3\n"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pass --dyn-smem BYTES"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("PTX line"), std::string::npos) << r.err;
  EXPECT_EQ(r.out.find("Kernel totals"), std::string::npos) << "a failed run's totals are not results:\n" << r.out;
  std::vector<std::string> verbose = launch;
  verbose.push_back("--verbose");
  EXPECT_NE(run(verbose).err.find("at reduce_sequential.cu:12:3 [PTX line 46]\n"), std::string::npos);
  std::vector<std::string> json = launch;
  json.push_back("--json");
  const auto j = nlohmann::json::parse(run(json).out);
  EXPECT_TRUE(j["failed"].get<bool>());
  EXPECT_FALSE(j.contains("metrics"));
  EXPECT_EQ(j["diagnostics"][0]["ptx_line"], 46);
  std::vector<std::string> fix = launch;
  fix[0] = "fix";
  const CliRun f = run(fix);
  EXPECT_EQ(f.status, 1);
  EXPECT_NE(f.out.find("the emulation stopped with an error, so there is nothing to fix or prove yet"),
            std::string::npos)
      << f.out;
  EXPECT_EQ(f.out.find("kernel after"), std::string::npos) << f.out;
}

TEST(Messages, FailOnTakesLinesAndArraysInKernelToo) {
  const CliRun array = run(tiled({"--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:512", "--fail-on",
                                  "array tile excess-wavefronts>0", "--no-diagnostics"}));
  EXPECT_EQ(array.status, 3);
  EXPECT_NE(array.err.find("--fail-on array tile excess-wavefronts>0: 253952 excess shared wavefronts, above 0"),
            std::string::npos)
      << array.err;
  const CliRun typo = run(tiled({"--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:512", "--fail-on",
                                 "array tyle bank-conflicts", "--no-diagnostics"}));
  EXPECT_EQ(typo.status, 3);
  EXPECT_NE(typo.err.find("has no array 'tyle' (it has: tile, arg0, arg1)"), std::string::npos) << typo.err;
  EXPECT_EQ(run(tiled({"--arg", "buf:1M", "--arg", "buf:1M", "--arg", "i32:512", "--fail-on",
                       "line transpose_tiled.cu:22 bank-conflicts", "--no-diagnostics"}))
                .status,
            0);
}

}  // namespace
}  // namespace warpscope::cli
