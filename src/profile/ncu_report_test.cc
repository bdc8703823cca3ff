// ncu_report_test.cc: the raw and Source pages of real H200 exports (tests/data/ncu/, from
// bench/results/h200/examples/ncu_raw.tar.gz), and ncu's failure messages.
#include "profile/ncu_report.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace warpscope::profile {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(WARPSCOPE_TEST_DATA) + "/ncu/" + name, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  EXPECT_FALSE(s.str().empty()) << name;
  return s.str();
}

const MeasuredLine* find_line(const MeasuredSource& s, const std::string& file_suffix, int line) {
  for (const MeasuredLine& l : s.lines)
    if (l.line == line && l.file.size() >= file_suffix.size() &&
        l.file.compare(l.file.size() - file_suffix.size(), file_suffix.size(), file_suffix) == 0)
      return &l;
  return nullptr;
}

TEST(NcuRawPage, KernelTotalsLaunchShapeAndDevice) {
  auto kernels = parse_raw_page(fixture("transpose_tiled_f32.raw.csv"), "raw.csv");
  ASSERT_TRUE(kernels) << kernels.error().render();
  ASSERT_EQ(kernels->size(), 1u);
  const MeasuredKernel& k = (*kernels)[0];
  EXPECT_EQ(k.id, 0);
  EXPECT_EQ(k.name, "transpose_tiled_f32");
  EXPECT_EQ(k.grid, (emu::Dim3{16, 16, 1}));
  EXPECT_EQ(k.block, (emu::Dim3{32, 8, 1}));
  EXPECT_EQ(k.dynamic_shared_bytes, 0u);
  EXPECT_EQ(k.device, "NVIDIA H200");
  // The same figures bench/gpu/collect_examples.py read from this export.
  EXPECT_EQ(k.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), 262144);
  EXPECT_EQ(k.metrics.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"), 253952);
  EXPECT_EQ(k.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"), 8192);
  EXPECT_EQ(k.metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st"), 32768);
}

TEST(NcuRawPage, DemangledTemplateNameAndTextBeforeTheTable) {
  const std::string text = "program output\n==PROF== Connected to process 1\n" + fixture("transpose_padded_f32.raw.csv");
  auto kernels = parse_raw_page(text, "raw.csv");
  ASSERT_TRUE(kernels) << kernels.error().render();
  EXPECT_EQ((*kernels)[0].name, "void transpose_padded<float>(T1 *, const T1 *, int)");
  EXPECT_EQ((*kernels)[0].metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), 8192);
}

TEST(NcuRawPage, TwoLaunchesAndBadInput) {
  const std::string text =
      "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\",\"a.sum\"\n\"\",\"\",\"\",\"\",\"sector\"\n"
      "\"0\",\"k\",\"(2, 1, 1)\",\"(64, 1, 1)\",\"1,000\"\n\"1\",\"k\",\"(4, 1, 1)\",\"(64, 1, 1)\",\"-\"\n";
  auto kernels = parse_raw_page(text, "raw.csv");
  ASSERT_TRUE(kernels) << kernels.error().render();
  ASSERT_EQ(kernels->size(), 2u);
  EXPECT_EQ((*kernels)[0].metrics.at("a"), 1000);
  EXPECT_EQ((*kernels)[1].grid.x, 4u);
  EXPECT_FALSE((*kernels)[1].metrics.count("a"));

  auto no_header = parse_raw_page("hello\n", "raw.csv");
  ASSERT_FALSE(no_header);
  EXPECT_NE(no_header.error().message.find("not an ncu raw-page CSV"), std::string::npos);
  auto short_row = parse_raw_page("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\"\n\"0\",\"k\"\n", "raw.csv");
  ASSERT_FALSE(short_row);
  EXPECT_EQ(short_row.error().where.line, 2);
  auto bad_grid = parse_raw_page("\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\"\n\"0\",\"k\",\"(0, 1, 1)\",\"(1, 1, 1)\"\n", "raw.csv");
  ASSERT_FALSE(bad_grid);
  EXPECT_NE(bad_grid.error().message.find("Grid Size"), std::string::npos);
  // Found by ncu_csv_fuzz: an ID too large for an int was converted anyway (UB).
  auto huge_id = parse_raw_page(
      "\"ID\",\"Kernel Name\",\"Grid Size\",\"Block Size\"\n\"88888888888888888888888\",\"k\",\"(1, 1, 1)\",\"(1, 1, 1)\"\n",
      "raw.csv");
  ASSERT_FALSE(huge_id);
  EXPECT_EQ(huge_id.error().where.line, 2);
  EXPECT_NE(huge_id.error().message.find("not a kernel launch number"), std::string::npos);
}

TEST(NcuSourcePage, PerLineCountersOfOneFile) {
  auto sources = parse_source_page(fixture("transpose_tiled_f32.source.csv"), "source.csv");
  ASSERT_TRUE(sources) << sources.error().render();
  ASSERT_EQ(sources->size(), 1u);
  const MeasuredSource& s = (*sources)[0];
  EXPECT_EQ(s.function, "transpose_tiled_f32");
  const MeasuredLine* l27 = find_line(s, "transpose_tiled.cu", 27);
  ASSERT_NE(l27, nullptr);
  EXPECT_EQ(l27->metrics.at("L1 Wavefronts Shared"), 262144);
  EXPECT_EQ(l27->metrics.at("L1 Wavefronts Shared Ideal"), 8192);
  EXPECT_EQ(l27->metrics.at("L2 Theoretical Sectors Global"), 32768);
  EXPECT_NE(l27->source.find("tile[threadIdx.x][threadIdx.y + j]"), std::string::npos);
  const MeasuredLine* l22 = find_line(s, "transpose_tiled.cu", 22);
  ASSERT_NE(l22, nullptr);
  EXPECT_EQ(l22->metrics.at("L1 Wavefronts Shared"), 8192);
}

TEST(NcuSourcePage, InlinedHeaderIsAnotherFileOfTheSameLaunch) {
  auto sources = parse_source_page(fixture("histogram256_rank.source.csv"), "source.csv");
  ASSERT_TRUE(sources) << sources.error().render();
  ASSERT_EQ(sources->size(), 1u);
  const MeasuredLine* atomic = find_line((*sources)[0], "device_atomic_functions.hpp", 112);
  ASSERT_NE(atomic, nullptr);
  EXPECT_EQ(atomic->metrics.at("L1 Wavefronts Shared"), 18399);
  const MeasuredLine* call = find_line((*sources)[0], "histogram.cu", 35);
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->metrics.at("L1 Wavefronts Shared"), 0);
  EXPECT_EQ(call->metrics.at("L2 Theoretical Sectors Global"), 10240);
}

TEST(NcuSourcePage, RepeatedLaunchesPairWithRawRowsInOrder) {
  const std::string one = fixture("transpose_tiled_f32.source.csv");
  auto sources = parse_source_page(one + one + fixture("histogram256_rank.source.csv"), "source.csv");
  ASSERT_TRUE(sources) << sources.error().render();
  ASSERT_EQ(sources->size(), 3u);
  std::vector<MeasuredKernel> kernels(3);
  kernels[0].name = "histogram256_rank";
  kernels[1].name = "transpose_tiled_f32";
  kernels[2].name = "transpose_tiled_f32";
  const auto paired = pair_sources(kernels, *sources);
  EXPECT_EQ(paired[0], &(*sources)[2]);
  EXPECT_EQ(paired[1], &(*sources)[0]);
  EXPECT_EQ(paired[2], &(*sources)[1]);
  kernels.push_back(kernels[1]);
  EXPECT_EQ(pair_sources(kernels, *sources)[3], nullptr);
}

TEST(NcuSourcePage, SourceTextWithQuotesAndCommas) {
  // ncu prints source text as is: its quotes are not doubled.
  const std::string text =
      "\"File Path\",\"/src/k.cu\"\n\"Function Name\",\"k\"\n"
      "\"Line No\",\"Source\",\"Address\",\"Source\",\"L1 Wavefronts Shared\"\n"
      "\"7\",\"printf(\"%d\", s[i]);\",\"-\",\"-\",\"4\"\n"
      "\"\",\"\",\"0x10\",\"LDS R1, [R2]\",\"4\"\n";
  auto sources = parse_source_page(text, "source.csv");
  ASSERT_TRUE(sources) << sources.error().render();
  ASSERT_EQ((*sources)[0].lines.size(), 1u);
  EXPECT_EQ((*sources)[0].lines[0].source, "printf(\"%d\", s[i]);");
  EXPECT_EQ((*sources)[0].lines[0].metrics.at("L1 Wavefronts Shared"), 4);
}

TEST(NcuOutput, RecognisedFailures) {
  EXPECT_NE(diagnose_ncu_output("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission")->find("permission"),
            std::string::npos);
  EXPECT_NE(diagnose_ncu_output("==PROF== Disconnected\n==WARNING== No kernels were profiled.\n")->find("no kernel"),
            std::string::npos);
  EXPECT_EQ(*diagnose_ncu_output("==ERROR== something new\nmore"), "==ERROR== something new");
  EXPECT_FALSE(diagnose_ncu_output("==PROF== Profiling \"k\" - 0: 100% - 10 passes\n"));
}

}  // namespace
}  // namespace warpscope::profile
