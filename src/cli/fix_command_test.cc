// fix_command_test.cc: `warpscope fix` end to end on the tiled transpose: the layout it
// chooses, run through the whole kernel again, reaches the hand-padded kernel's 8192
// shared-load wavefronts (measured on an H200).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_run_test.h"
#include "cli/command.h"
#include "driver/toolchain.h"

namespace warpscope::cli {
namespace {

using test::CliRun;
using test::run;

const std::string kTranspose = std::string(WARPSCOPE_SOURCE_DIR) + "/examples/transpose_tiled.ptx";

TEST(FixCommand, TransposeTiledReachesTheHandPaddedKernel) {
  const CliRun r = run({"fix", kTranspose.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block",
                        "32,8", "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass",
                        "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto& after = j["kernel_after"]["metrics"];
  EXPECT_LE(after["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"].get<long long>(), 8192);
  EXPECT_LE(after["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"].get<long long>(), 8192);
  EXPECT_EQ(after["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"].get<long long>(), 0);
  // Global traffic is untouched by a shared layout.
  EXPECT_EQ(after["l1tex__t_sectors_pipe_lsu_mem_global_op_ld"], j["kernel_before"]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld"]);
  EXPECT_EQ(j["kernel_before"]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"].get<long long>(), 262144);
  ASSERT_EQ(j["arrays"].size(), 1u);
  const auto& a = j["arrays"][0];
  EXPECT_EQ(a["array"], "tile");
  EXPECT_EQ(a["before"].get<long long>(), 262144 + 8192);
  EXPECT_EQ(a["after"].get<long long>(), 8192 + 8192);
  EXPECT_EQ(a["layout"], "Swizzle<5,2,5>");
  EXPECT_EQ(a["code"], "tile[r][c ^ (r & 31)]  // rows of 32; 1-D: tile[i ^ ((i >> 5) & 31)]");
  EXPECT_EQ(a["smem_bytes"]["extra"], 0);
  EXPECT_EQ(a["occupancy"]["before"]["blocks_per_sm"], a["occupancy"]["after"]["blocks_per_sm"]);
  EXPECT_GE(a["candidates"].size(), 2u);
}

// The padding the textbook does not reach, as the H200 measured it
// (bench/results/h200/fixes/conv3x3_h200.md: load / store wavefronts 18432 / 5376).
TEST(FixCommand, ConvHaloTileGetsAWavefrontWidePad) {
  const std::string conv = std::string(WARPSCOPE_SOURCE_DIR) + "/examples/conv3x3.ptx";
  const CliRun r = run({"fix", conv.c_str(), "--kernel", "conv3x3", "--grid", "16,16", "--block", "16,16", "--arg",
                        "buf:262144", "--arg", "buf:262144", "--arg", "i32:256", "--no-sass", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["arrays"].size(), 1u);
  const auto& a = j["arrays"][0];
  EXPECT_EQ(a["before"].get<long long>(), 39680);
  EXPECT_EQ(a["after"].get<long long>(), 23808);
  EXPECT_EQ(a["layout"], "pad +120 B per 72 B row");
  EXPECT_EQ(a["code"].get<std::string>().substr(0, 28), "__shared__ float tile[18][48");
  const auto& after = j["kernel_after"]["metrics"];
  EXPECT_EQ(after["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"].get<long long>(), 18432);
  EXPECT_EQ(after["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"].get<long long>(), 5376);
}

TEST(FixCommand, TextNamesTheLayoutAndTheCode) {
  const CliRun r = run({"fix", kTranspose.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block",
                        "32,8", "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("tile (4096 B, float elements): 270336 -> 16384 shared wavefronts"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("__shared__ float tile[32][33];"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld  262144 -> 8192"), std::string::npos) << r.out;
}

TEST(FixCommand, HtmlShowsTheChosenLayoutUnderTheConflictedAccesses) {
  const std::string html = ::testing::TempDir() + "fix_command_test.html";
  const CliRun r = run({"fix", kTranspose.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block",
                        "32,8", "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass",
                        "--html", html.c_str()});
  ASSERT_EQ(r.status, 0) << r.err;
  std::ifstream in(html);
  std::ostringstream page;
  page << in.rdbuf();
  const std::string s = page.str();
  // In the header, and under each of the 8 shared instructions (4 stores, 4 loads) touching 'tile'.
  const std::string fix = "suggested fix for 'tile': ";
  std::size_t n = 0;
  for (std::size_t at = s.find(fix); at != std::string::npos; at = s.find(fix, at + 1)) ++n;
  EXPECT_EQ(n, 1u + 8u);
  EXPECT_NE(s.find("270336 &#8594; 16384 shared wavefronts (ideal 16384), measured by re-running the kernel"),
            std::string::npos);
  EXPECT_NE(s.find("<span class=\"deg\">32-way</span>"), std::string::npos);  // the first run is drawn
}

const std::string kNaive = std::string(WARPSCOPE_SOURCE_DIR) + "/examples/transpose_naive.ptx";
const std::string kAos = std::string(WARPSCOPE_SOURCE_DIR) + "/examples/aos_soa.ptx";

TEST(FixCommand, NaiveTransposeGetsStagingAdviceForItsColumnWrite) {
  const CliRun r = run({"fix", kNaive.c_str(), "--kernel", "transpose_naive_f32", "--grid", "16,16", "--block", "32,8",
                        "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass", "--json"});
  ASSERT_EQ(r.status, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["arrays"].empty());
  // The re-run applies the staging: 32768 store sectors, as transpose_tiled measures on the H200.
  EXPECT_EQ(j["kernel_after"]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_st"].get<long long>(), 32768);
  ASSERT_EQ(j["global"].size(), 1u) << j["global"].dump(1);  // the row-wise read is coalesced
  const auto& g = j["global"][0];
  EXPECT_EQ(g["instruction"], "st.global.f32");
  EXPECT_EQ(g["file"].get<std::string>().substr(g["file"].get<std::string>().rfind('/') + 1), "transpose_naive.cu");
  EXPECT_EQ(g["line"], 19);
  EXPECT_EQ(g["pcs"].size(), 4u);  // the unrolled loop: four stores on one line
  EXPECT_EQ(g["before"]["sectors"], 262144);
  EXPECT_EQ(g["before"]["ideal"], 32768);
  EXPECT_EQ(g["before"]["requests"], 8192);
  ASSERT_GE(g["suggestions"].size(), 1u);
  const auto& s = g["suggestions"][0];
  EXPECT_EQ(s["change"], "stage through shared memory");
  // A block's 32 rows of 32 floats, each row one 4-sector warp store: what transpose_tiled does.
  EXPECT_EQ(s["sectors"], 32768);
  EXPECT_EQ(s["requests"], 8192);
  EXPECT_EQ(s["saved"], 262144 - 32768);
  EXPECT_NE(s["detail"].get<std::string>().find("tile[32][33]"), std::string::npos);
  EXPECT_EQ(j["occupancy"]["registers_per_thread"], 0);
  EXPECT_NE(j["occupancy"]["registers_note"].get<std::string>().find("--no-sass"), std::string::npos);
}

TEST(FixCommand, AosGetsSoaAdviceAndRegistersBindOccupancy) {
  const CliRun r = run({"fix", kAos.c_str(), "--kernel", "aos_scale", "--grid", "256", "--block", "256", "--arg",
                        "buf:786432", "--arg", "i32:65536", "--arg", "f32:1.5", "--no-sass", "--registers", "40"});
  ASSERT_EQ(r.status, 0) << r.err;
  // Lanes 12 B apart: 12 sectors per warp; one array per field: 4.
  EXPECT_NE(r.out.find("aos_soa.cu:18  ld.global.f32 (SASS LDG.E): 24576 sectors (ideal 8192), 2048 requests\n"
                       "    AoS to SoA: 24576 -> 8192 sectors, 2048 -> 2048 requests, saves 16384"),
            std::string::npos)
      << r.out;
  // 40 registers: 1280 per warp, 12 warps per sub-partition, 48 per SM: 6 blocks of 8 warps.
  EXPECT_NE(r.out.find("occupancy: 6 blocks (48 warps) per SM before and after, limited by registers; 40 registers "
                       "per thread (--registers)"),
            std::string::npos)
      << r.out;
}

TEST(FixCommand, RegistersOutOfRangeAreAUsageError) {
  const CliRun r = run({"fix", kAos.c_str(), "--kernel", "aos_scale", "--registers", "300", "--no-sass"});
  EXPECT_NE(r.status, 0);
}

TEST(SassTools, ParsesRegistersOfTheNamedEntry) {
  const std::string out =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function 'transpose_naive_f64' for 'sm_90'\n"
      "ptxas info    : Function properties for transpose_naive_f64\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 22 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function 'transpose_naive_f32' for 'sm_90'\n"
      "ptxas info    : Function properties for transpose_naive_f32\n"
      "ptxas info    : Used 20 registers, used 0 barriers\n";
  EXPECT_EQ(driver::parse_ptxas_registers(out, "transpose_naive_f32"), 20);
  EXPECT_EQ(driver::parse_ptxas_registers(out, "transpose_naive_f64"), 22);
  EXPECT_EQ(driver::parse_ptxas_registers(out, "transpose_naive"), std::nullopt);
  EXPECT_EQ(driver::parse_ptxas_registers("ptxas info    : Compiling entry function 'k' for 'sm_90'\n", "k"), std::nullopt);
}

TEST(FixCommand, BadKernelIsAnError) {
  const CliRun r = run({"fix", kTranspose.c_str(), "--kernel", "nope", "--no-sass"});
  EXPECT_EQ(r.status, kExitBadInput);  // a kernel name the file lacks: the request was wrong
  EXPECT_NE(r.err.find("nope"), std::string::npos);
}

}  // namespace
}  // namespace warpscope::cli
