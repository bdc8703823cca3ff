// fusion_plan_test.cc: the PTX groups behind ptxas's vector instructions, on the examples.
#include "analysis/fusion_plan.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ptx/parser.h"

namespace warpscope::analysis {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

ptx::Module example(const std::string& name) {
  auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/examples/" + name + ".ptx"), name + ".ptx");
  EXPECT_TRUE(m.ok());
  return m.ok() ? std::move(*m) : ptx::Module{};
}

FusionPlan plan_for(const ptx::Module& m, const std::string& name) {
  auto sass = sass::parse_sass_listing(read(std::string(WARPSCOPE_TEST_DATA) + "/sass/" + name + ".sass"));
  EXPECT_TRUE(sass.ok());
  return sass.ok() ? plan_fusions(m, *sass) : FusionPlan{};
}

TEST(FusionPlan, TiledGemmMergesFourLoadsEightTimes) {
  const ptx::Module m = example("gemm_tiled");
  const FusionPlan plan = plan_for(m, "gemm_tiled");
  EXPECT_EQ(plan.groups, 8);  // the SASS has 8 LDS.128 on line 26
  EXPECT_EQ(plan.roles.size(), 32u);
  for (const auto& [inst, role] : plan.roles) {
    EXPECT_EQ(role.width, 16);
    EXPECT_EQ(role.size, 4);
  }
  EXPECT_TRUE(has_merge_candidates(m));
}

TEST(FusionPlan, ScanMergesAcrossLinesAtTheRightPart) {
  const ptx::Module m = example("scan_blelloch");
  const FusionPlan plan = plan_for(m, "scan_blelloch");
  ASSERT_GE(plan.groups, 2);
  for (const auto& [inst, role] : plan.roles) EXPECT_EQ(role.width, 8);
}

TEST(FusionPlan, NothingToMergeInANaiveTranspose) {
  const ptx::Module m = example("transpose_naive");
  EXPECT_FALSE(has_merge_candidates(m));
  EXPECT_EQ(plan_for(m, "transpose_naive").groups, 0);
}

}  // namespace
}  // namespace warpscope::analysis
