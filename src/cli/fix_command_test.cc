// fix_command_test.cc: `warpscope fix` end to end on the tiled transpose: the layout it
// chooses, run through the whole kernel again, reaches the hand-padded kernel's 8192
// shared-load wavefronts (measured on an H200).
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"

namespace warpscope::cli {
namespace {

struct CliRun {
  int status;
  std::string out, err;
};

CliRun run(std::vector<const char*> args) {
  args.insert(args.begin(), "warpscope");
  std::istringstream in;
  std::ostringstream out, err;
  CommandContext ctx{in, out, err};
  const int status = run_cli(static_cast<int>(args.size()), args.data(), ctx);
  return {status, out.str(), err.str()};
}

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

TEST(FixCommand, TextNamesTheLayoutAndTheCode) {
  const CliRun r = run({"fix", kTranspose.c_str(), "--kernel", "transpose_tiled_f32", "--grid", "16,16", "--block",
                        "32,8", "--arg", "buf:1048576", "--arg", "buf:1048576", "--arg", "i32:512", "--no-sass"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("tile (4096 B, 4-byte elements): 270336 -> 16384 shared wavefronts"), std::string::npos) << r.out;
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

TEST(FixCommand, BadKernelIsAnError) {
  const CliRun r = run({"fix", kTranspose.c_str(), "--kernel", "nope", "--no-sass"});
  EXPECT_EQ(r.status, kExitError);
  EXPECT_NE(r.err.find("nope"), std::string::npos);
}

}  // namespace
}  // namespace warpscope::cli
