// findings_test.cc: which lines are flagged, with which figures and names.
#include "report/findings.h"

#include <gtest/gtest.h>

#include "report/test_report.h"

namespace warpscope::report {
namespace {

TEST(Findings, OnePerFlaggedAccessKindInSourceOrder) {
  const auto findings = find_flagged_lines(testing::sample_report());
  ASSERT_EQ(findings.size(), 2u);  // the coalesced store on line 27 and line 22 are clean
  EXPECT_EQ(findings[0].file, "aos_soa.cu");
  EXPECT_EQ(findings[0].kind, Finding::Kind::UncoalescedGlobal);
  EXPECT_EQ(findings[0].sectors, 49152);
  EXPECT_EQ(findings[0].ideal_sectors, 16384);
  EXPECT_EQ(findings[0].cause, "stride");
  EXPECT_EQ(findings[0].array, "in");
  EXPECT_EQ(findings[1].file, "transpose_tiled.cu");
  EXPECT_EQ(findings[1].line, 27);
  EXPECT_EQ(findings[1].column, 5);
  EXPECT_EQ(findings[1].kind, Finding::Kind::SharedBankConflict);
  EXPECT_EQ(findings[1].conflict_degree, 32);
  EXPECT_EQ(findings[1].wavefronts, 262144);
  EXPECT_EQ(findings[1].ideal_wavefronts, 8192);
  EXPECT_EQ(findings[1].array, "tile");
  EXPECT_EQ(findings[1].operation, "load");
}

TEST(Findings, SampledRunsAreScaledLikeTheTotals) {
  auto r = testing::sample_report();
  r.blocks_run = 64;
  r.scale = 4.0;
  const auto findings = find_flagged_lines(r);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[1].wavefronts, 4 * 262144);
  EXPECT_EQ(findings[1].ideal_wavefronts, 4 * 8192);
}

TEST(Findings, MessagesInWords) {
  const auto findings = find_flagged_lines(testing::sample_report());
  EXPECT_EQ(finding_message(findings[0]), "uncoalesced global load: 49152 sectors, ideal 16384 (33% efficiency, stride)");
  EXPECT_EQ(finding_message(findings[1]),
            "32-way shared-memory bank conflict loading 'tile' (262144 wavefronts, ideal 8192)");
}

TEST(Findings, AnUnknownRegionLeavesTheArrayUnnamed) {
  auto r = testing::sample_report();
  r.regions.clear();
  const auto findings = find_flagged_lines(r);
  EXPECT_EQ(findings[1].array, "");
  EXPECT_EQ(finding_message(findings[1]), "32-way shared-memory bank conflict on a load (262144 wavefronts, ideal 8192)");
}

TEST(Findings, SourceNamesOfLocalStatics) {
  EXPECT_EQ(source_name("_ZZ19transpose_tiled_f32E4tile"), "tile");
  EXPECT_EQ(source_name("_ZZ16transpose_paddedIfEvPT_PKS0_iE4tile"), "tile");
  EXPECT_EQ(source_name("_ZZ4mainE1s_0"), "s");
  EXPECT_EQ(source_name("_ZZ4mainE1s__12_"), "s");
  EXPECT_EQ(source_name("_ZZN2ns6kernelEvE6buffer"), "buffer");
  EXPECT_EQ(source_name("smem"), "smem");
  EXPECT_EQ(source_name("_ZZbroken"), "_ZZbroken");
}

}  // namespace
}  // namespace warpscope::report
