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

// A wmma.load of an f32 accumulator runs as 4 x LDS.64: those are the SASS's wide loads of
// its line, not merges of the line's scalar loads (which stay priced as they are).
TEST(FusionPlan, WmmaAccessesAreNotMergesOfScalarLoads) {
  const std::string ptx =
      ".version 8.5\n.target sm_90\n.address_size 64\n.file 1 \"w.cu\"\n"
      ".visible .entry k(.param .u32 p)\n{\n\t.reg .b32 %r<20>;\n\t.reg .f32 %f<20>;\n"
      "\tld.param.u32 %r1, [p];\n\t.loc 1 5 1\n"
      "\twmma.load.c.sync.aligned.row.m16n16k16.shared.f32 {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8}, [%r1], 16;\n"
      "\tld.shared.f32 %f9, [%r1+0];\n\tld.shared.f32 %f10, [%r1+4];\n\tret;\n}\n";
  auto m = ptx::parse(ptx, "w.ptx");
  ASSERT_TRUE(m.ok()) << m.error().render();
  const std::string listing =
      "\t.text.k:\n        //## File \"w.cu\", line 5\n"
      "        /*0010*/                   LDS.64 R4, [R1] ;\n        /*0020*/                   LDS.64 R6, [R2] ;\n"
      "        /*0030*/                   LDS.64 R8, [R1+0x20] ;\n        /*0040*/                   LDS.64 R10, [R2+0x20] ;\n"
      "        /*0050*/                   LDS R12, [R1] ;\n        /*0060*/                   LDS R13, [R1+0x4] ;\n";
  auto sass = sass::parse_sass_listing(listing);
  ASSERT_TRUE(sass.ok());
  ASSERT_EQ(sass->size(), 1u);
  EXPECT_EQ(plan_fusions(*m, *sass).groups, 0);
}

}  // namespace
}  // namespace warpscope::analysis
