// comparison_test.cc: differences, and which known cause explains each.
#include "profile/comparison.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "ptx/parser.h"

namespace warpscope::profile {
namespace {

const char* kLd = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld";
const char* kLdConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld";

// A kernel whose line 27 loads shared memory (262144 wavefronts, ideal 8192), measured alike.
struct Case {
  MeasuredKernel measured;
  MeasuredSource source;
  analysis::KernelReport report;
  Case() {
    measured.name = "k";
    report.blocks_total = report.blocks_run = 256;
    report.priced_from = "sass";
    for (const std::string& name : analysis::kernel_metric_names()) {
      report.metrics[name] = 0;
      measured.metrics[name] = 0;
    }
    report.metrics[kLd] = measured.metrics[kLd] = 262144;
    report.metrics[kLdConflicts] = measured.metrics[kLdConflicts] = 253952;
    analysis::LineReport line;
    line.file = "t.cu";
    line.line = 27;
    line.metrics = {{analysis::kSourceWavefronts, 262144}, {analysis::kSourceWavefrontsIdeal, 8192}};
    report.lines.push_back(line);
    source.function = "k";
    source.lines.push_back(MeasuredLine{"/home/me/t.cu", 27, "x = tile[i];",
                                        {{"L1 Wavefronts Shared", 262144}, {"L1 Wavefronts Shared Ideal", 8192}}});
  }
  KernelComparison compare(const LineSet& sites = {}) const { return compare_kernel(measured, &source, report, sites); }
};

const FigureComparison& figure(const std::vector<FigureComparison>& figures, const std::string& name) {
  for (const auto& f : figures)
    if (f.name == name) return f;
  static FigureComparison none;
  ADD_FAILURE() << "no figure " << name;
  return none;
}

TEST(Comparison, AgreeingKernelHasNoDifferences) {
  const KernelComparison k = Case().compare();
  EXPECT_TRUE(k.predicted);
  EXPECT_EQ(k.differences, 0);
  EXPECT_EQ(k.metrics.size(), analysis::kernel_metric_names().size());
  ASSERT_EQ(k.lines.size(), 1u);  // the absolute ncu path and the .file name are one file
  EXPECT_EQ(k.lines[0].file, "t.cu");
  EXPECT_EQ(figure(k.lines[0].figures, "L1 Wavefronts Shared").measured, 262144);
}

TEST(Comparison, ConflictCounterAboveTheWavefrontsExcessIsArbitration) {
  Case c;
  c.measured.metrics[kLdConflicts] = 254000;
  const KernelComparison k = c.compare();
  EXPECT_EQ(k.differences, 1);
  EXPECT_EQ(k.unexplained, 0);
  EXPECT_NE(figure(k.metrics, kLdConflicts).explanation.find("arbitration"), std::string::npos);
}

TEST(Comparison, WavefrontDifferenceIsUnexplained) {
  Case c;
  c.measured.metrics[kLd] = 131072;
  c.source.lines[0].metrics["L1 Wavefronts Shared"] = 131072;
  const KernelComparison k = c.compare();
  EXPECT_EQ(k.differences, 2);  // the total and line 27 (the conflicts counter agrees)
  EXPECT_EQ(k.unexplained, 2);
  const FigureComparison& f = figure(k.metrics, kLd);
  EXPECT_TRUE(f.differs());
  EXPECT_EQ(*f.measured - static_cast<double>(f.predicted), -131072);
}

TEST(Comparison, CallSiteOfInlinedCodeMeasuredLowerIsExplained) {
  Case c;
  c.source.lines[0].metrics = {};
  EXPECT_EQ(c.compare().unexplained, 2);
  const KernelComparison k = c.compare({{"t.cu", 27}});
  EXPECT_EQ(k.differences, 2);
  EXPECT_EQ(k.unexplained, 0);
  EXPECT_NE(figure(k.lines[0].figures, "L1 Wavefronts Shared").explanation.find("inlined"), std::string::npos);
}

TEST(Comparison, SampledAndPtxPricedPredictionsSayWhy) {
  Case c;
  c.report.blocks_run = 64;
  c.measured.metrics[kLd] = 262150;
  KernelComparison k = c.compare();
  EXPECT_EQ(k.unexplained, 0);
  EXPECT_NE(figure(k.metrics, kLd).explanation.find("sampled"), std::string::npos);
  ASSERT_FALSE(k.notes.empty());
  EXPECT_NE(k.notes[0].find("64 of 256 blocks"), std::string::npos);
  c.report.blocks_run = 256;
  c.report.priced_from = "ptx";
  c.report.sass_note = "ptxas is not on PATH";
  k = c.compare();
  EXPECT_NE(figure(k.metrics, kLd).explanation.find("PTX"), std::string::npos);
}

TEST(Comparison, MetricNotCollectedIsNoDifference) {
  Case c;
  c.measured.metrics.erase(kLd);
  const KernelComparison k = c.compare();
  EXPECT_EQ(k.differences, 0);
  EXPECT_FALSE(figure(k.metrics, kLd).measured);
  const KernelComparison no_source = compare_kernel(c.measured, nullptr, c.report, {});
  EXPECT_FALSE(no_source.has_source_page);
  EXPECT_TRUE(no_source.lines.empty());
  // A Source page without CUDA rows (ncu did not find the .cu) compares no lines.
  c.source.lines.clear();
  const KernelComparison sass_only = c.compare();
  EXPECT_FALSE(sass_only.has_source_page);
  EXPECT_EQ(sass_only.differences, 0);
  ASSERT_FALSE(sass_only.notes.empty());
  EXPECT_NE(sass_only.notes.back().find("no CUDA lines"), std::string::npos);
}

TEST(Comparison, InlinedCallSitesOfTheHistogramKernel) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR) + "/examples/histogram.ptx");
  std::ostringstream text;
  text << in.rdbuf();
  auto module = ptx::parse(text.str(), "histogram.ptx");
  ASSERT_TRUE(module) << module.error().render();
  const LineSet sites = inlined_call_sites(*module, module->find_function("histogram256_rank"));
  EXPECT_TRUE(sites.count({"histogram.cu", 35}));  // atomicAdd(&bins[v], 1) inlined from the CUDA header
  EXPECT_FALSE(sites.count({"histogram.cu", 32}));
}

}  // namespace
}  // namespace warpscope::profile
