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

}  // namespace
}  // namespace warpscope::report
