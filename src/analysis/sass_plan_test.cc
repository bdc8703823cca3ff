// sass_plan_test.cc: the SASS matcher on the examples' committed listings.
#include "analysis/sass_plan.h"

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

SassPlan plan_for(const ptx::Module& m, const std::string& name) {
  auto sass = sass::parse_sass_listing(read(std::string(WARPSCOPE_TEST_DATA) + "/sass/" + name + ".sass"));
  EXPECT_TRUE(sass.ok());
  return sass.ok() ? plan_from_sass(m, *sass) : SassPlan{};
}

TEST(SassPlan, TiledGemmMergesFourLoadsEightTimes) {
  const ptx::Module m = example("gemm_tiled");
  const SassPlan plan = plan_for(m, "gemm_tiled");
  EXPECT_EQ(plan.groups, 8);  // the SASS has 8 LDS.128 on line 26
  int parts = 0, anchors = 0;
  for (const auto& [inst, role] : plan.roles) {
    if (role.action != InstructionPlan::Action::Merge) continue;
    ++parts;
    anchors += role.merge.anchor;
    EXPECT_EQ(role.merge.width, 16);
    EXPECT_EQ(role.merge.parts, 4);
    EXPECT_FALSE(role.merge.dynamic);
  }
  EXPECT_EQ(parts, 32);
  EXPECT_EQ(anchors, 8);
  EXPECT_EQ(plan.unmatched_ptx, 0);
  EXPECT_TRUE(needs_sass(m));
}

TEST(SassPlan, ScanMergesAcrossLines) {
  const ptx::Module m = example("scan_blelloch");
  const SassPlan plan = plan_for(m, "scan_blelloch");
  ASSERT_GE(plan.groups, 2);
  for (const auto& [inst, role] : plan.roles)
    if (role.action == InstructionPlan::Action::Merge) EXPECT_EQ(role.merge.width, 8);
}

TEST(SassPlan, NothingToMergeInANaiveTranspose) {
  const ptx::Module m = example("transpose_naive");
  EXPECT_FALSE(needs_sass(m));
  const SassPlan plan = plan_for(m, "transpose_naive");
  EXPECT_EQ(plan.groups, 0);
  EXPECT_EQ(plan.unmatched_ptx, 0);
}

}  // namespace
}  // namespace warpscope::analysis
