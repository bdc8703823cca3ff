// fix_report_test.cc: the fix writers on a hand-built report: the figures, the code, and
// the plain warning when a padding costs occupancy.
#include <gtest/gtest.h>

#include "report/fix_report.h"

namespace warpscope::report {
namespace {

analysis::FixReport padded_report() {
  const model::Arch& sm90 = **model::find_arch("sm_90");
  analysis::FixReport r;
  r.before.kernel = r.after.kernel = "k";
  r.before.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"] = 4096;
  r.after.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"] = 1024;
  analysis::ArrayFix a;
  a.name = "tile";
  a.size = 113 * 1024;  // 114 KiB with the reserve: exactly two blocks in 228 KiB
  a.before = 4096;
  a.ideal = 1024;
  a.after = 1024;
  a.search.elem_bytes = 4;
  a.search.candidates = 7;
  a.chosen = analysis::LayoutCandidate{layout::Padding{1024, 4}, 1024, 452, 1};
  a.search.best = {*a.chosen};
  a.occupancy_before = analysis::occupancy(sm90, a.size, 128);       // 2 blocks
  a.occupancy_after = analysis::occupancy(sm90, a.size + 452, 128);  // 1 block
  r.arrays.push_back(a);
  return r;
}

TEST(FixReport, TextSaysPlainlyWhenPaddingCostsOccupancy) {
  const std::string text = fix_text(padded_report());
  EXPECT_NE(text.find("tile (115712 B, 4-byte elements): 4096 -> 1024 shared wavefronts (ideal 1024)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("COSTS OCCUPANCY: 2 -> 1 blocks per SM (8 -> 4 warps), limited by shared memory"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("__shared__ float tile[113][257];"), std::string::npos) << text;
  EXPECT_NE(text.find("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld  4096 -> 1024"), std::string::npos) << text;
}

TEST(FixReport, JsonCarriesTheArrayFiguresAndBothKernels) {
  const nlohmann::json j = fix_json(padded_report());
  const auto& a = j["arrays"][0];
  EXPECT_EQ(a["array"], "tile");
  EXPECT_EQ(a["before"], 4096);
  EXPECT_EQ(a["after"], 1024);
  EXPECT_EQ(a["layout"], "pad +4 B per 1024 B row");
  EXPECT_EQ(a["smem_bytes"]["extra"], 452);
  EXPECT_EQ(a["smem_bytes"]["after"], 113 * 1024 + 452);
  EXPECT_EQ(a["occupancy"]["before"]["blocks_per_sm"], 2);
  EXPECT_EQ(a["occupancy"]["after"]["blocks_per_sm"], 1);
  EXPECT_TRUE(a["occupancy"]["costs_occupancy"].get<bool>());
  EXPECT_EQ(j["kernel_after"]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"], 1024);
  EXPECT_EQ(j["kernel_before"]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"], 4096);
}

analysis::FixReport global_report() {
  const model::Arch& sm90 = **model::find_arch("sm_90");
  analysis::FixReport r;
  r.before.kernel = r.after.kernel = "k";
  r.occupancy_before = r.occupancy_after = analysis::occupancy(sm90, 0, 256, 40);  // 6 blocks, registers
  r.registers_per_thread = 40;
  r.registers_note = "ptxas -v";
  analysis::GlobalAdvice g;
  g.pc = 3;
  g.pcs = {3, 9};
  g.instruction = "ld.global.f32";
  g.file = "/src/k.cu";
  g.line = 12;
  g.before = {24576, 2048, 8192};
  g.suggestions.push_back({"AoS to SoA", {24576, 2048, 8192}, {8192, 2048, 8192}, "lanes 12 B apart"});
  r.global.push_back(g);
  return r;
}

TEST(FixReport, GlobalAdviceAndRegistersInText) {
  const std::string text = fix_text(global_report());
  EXPECT_NE(text.find("occupancy: 6 blocks (48 warps) per SM before and after, limited by registers; 40 registers per "
                      "thread (ptxas -v)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("  k.cu:12  ld.global.f32 x2: 24576 sectors (ideal 8192), 2048 requests\n"
                      "    AoS to SoA: 24576 -> 8192 sectors, 2048 -> 2048 requests, saves 16384\n"
                      "      lanes 12 B apart\n"),
            std::string::npos)
      << text;
  analysis::FixReport none = global_report();
  none.registers_per_thread = 0;
  none.registers_note = "ptxas is not on PATH";
  none.global.clear();
  const std::string plain = fix_text(none);
  EXPECT_NE(plain.find("; registers not counted (ptxas is not on PATH)"), std::string::npos) << plain;
  EXPECT_NE(plain.find("global memory: every instruction moves its ideal sectors"), std::string::npos) << plain;
}

TEST(FixReport, GlobalAdviceInJson) {
  const nlohmann::json j = fix_json(global_report());
  ASSERT_EQ(j["global"].size(), 1u);
  const auto& g = j["global"][0];
  EXPECT_EQ(g["line"], 12);
  EXPECT_EQ(g["file"], "/src/k.cu");
  EXPECT_EQ(g["instruction"], "ld.global.f32");
  EXPECT_EQ(g["before"]["sectors"], 24576);
  EXPECT_EQ(g["before"]["requests"], 2048);
  EXPECT_EQ(g["before"]["ideal"], 8192);
  const auto& s = g["suggestions"][0];
  EXPECT_EQ(s["change"], "AoS to SoA");
  EXPECT_EQ(s["sectors"], 8192);
  EXPECT_EQ(s["requests"], 2048);
  EXPECT_EQ(s["saved"], 16384);
  EXPECT_EQ(s["detail"], "lanes 12 B apart");
  EXPECT_EQ(j["occupancy"]["registers_per_thread"], 40);
  EXPECT_EQ(j["occupancy"]["before"]["limited_by"], "registers");
  EXPECT_EQ(j["occupancy"]["before"]["blocks_by_limit"]["registers"], 6);
  EXPECT_TRUE(j["arrays"].empty());
  EXPECT_TRUE(j.contains("kernel_after"));
}

}  // namespace
}  // namespace warpscope::report
