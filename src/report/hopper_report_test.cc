// hopper_report_test.cc: the reports of the corpus's Hopper kernels (corpus/hopper/): TMA,
// bulk-copy, LDGSTS and STSM figures under their ncu names, per kernel and per line, in
// the JSON, the text and the HTML (the footprint of a TMA box on the banks).
#include <gtest/gtest.h>

#include <tuple>

#include "analysis/cost_listener.h"
#include "analysis/kernel_report.h"
#include "emu/args.h"
#include "emu/program.h"
#include "model/arch.h"
#include "ptx/parser.h"
#include "report/html_writer.h"
#include "report/kernel_json.h"
#include "report/kernel_text.h"

namespace warpscope::report {
namespace {

const std::string kCorpus = std::string(WARPSCOPE_TEST_DATA) + "/../../corpus/hopper/";

struct Built {
  ptx::Module module;
  analysis::KernelReport report;
};

// Runs a corpus launch (file: paths relative to corpus/hopper/) and builds its report.
std::unique_ptr<Built> build(const std::string& ptx, const std::string& kernel, const emu::LaunchConfig& launch,
                             std::vector<std::string> specs) {
  auto out = std::make_unique<Built>();
  auto m = ptx::parse_file(kCorpus + ptx + ".ptx");
  EXPECT_TRUE(m) << m.error().render();
  if (!m) return out;
  out->module = std::move(*m);
  for (std::string& s : specs)
    if (auto at = s.find("file:"); at != std::string::npos) s.insert(at + 5, kCorpus);
  emu::GlobalMemory memory;
  auto k = emu::find_kernel(out->module, kernel);
  EXPECT_TRUE(k);
  auto args = emu::make_arguments(out->module, *k, specs, memory);
  EXPECT_TRUE(args) << args.error().render();
  if (!args) return out;
  const model::Arch& arch = *model::find_arch("sm_90").value();
  auto run = emu::run(out->module, kernel, launch, args->values, memory, {},
                      [&] { return std::make_unique<analysis::CostListener>(arch); });
  EXPECT_TRUE(run) << run.error().render();
  if (!run) return out;
  EXPECT_FALSE(run->failed()) << run->diagnostics[0].message;
  out->report = analysis::build_kernel_report(out->module, kernel, launch, *run, launch.grid.count(), {});
  return out;
}

long long metric(const analysis::Metrics& m, const std::string& name) {
  auto it = m.find(name);
  return it == m.end() ? 0 : it->second;
}

const analysis::LineReport* line(const analysis::KernelReport& r, const std::string& file, int number) {
  for (const auto& l : r.lines)
    if (l.file == file && l.line == number) return &l;
  return nullptr;
}

std::unique_ptr<Built> tma_layout(const std::string& swizzle, int box_w) {
  const std::string dims = "dims=64x64,strides=256,box=" + std::to_string(box_w) + "x32,swizzle=" + swizzle;
  const auto gx = static_cast<std::uint32_t>(64 / box_w);
  return build("tma_layout", "tma_layout", {{gx, 2, 1}, {128, 1, 1}, static_cast<std::uint32_t>(box_w * 128 + 1040)},
               {"tmap:file:data/iota_64x64.bin,dtype=u32," + dims, "tmap:buf:16384,dtype=u32," + dims, "buf:65536",
                "i32:64", "i32:64", "i32:0", "i32:0", "i32:" + std::to_string(box_w), "i32:32",
                "i32:" + std::to_string(swizzle == "none" ? 0 : std::stoi(swizzle)), "u32:0"});
}

TEST(HopperReport, TmaFiguresUnderTheirNcuNames) {
  auto b = tma_layout("128B", 32);
  const analysis::KernelReport& r = b->report;
  // 4 blocks, one 32 x 32 u32 box each way: 32 rows of 128 bytes = 4 sectors a row.
  EXPECT_EQ(metric(r.metrics, analysis::kTmaLoads), 4);
  EXPECT_EQ(metric(r.metrics, analysis::kTmaLoadsIssued), 4);
  EXPECT_EQ(metric(r.metrics, analysis::kTmaLoadSectors), 4 * 32 * 4);
  EXPECT_EQ(metric(r.metrics, analysis::kTmaLoadBytes), 4 * 4096);
  EXPECT_EQ(metric(r.metrics, analysis::kTmaStores), 4);
  EXPECT_EQ(metric(r.metrics, analysis::kTmaStoreSectors), 4 * 32 * 4);
  EXPECT_EQ(metric(r.metrics, analysis::kTmaStoreBytes), 4 * 4096);
  // TMA puts nothing on the LSU counters; the box check reads shared memory conflict-free.
  EXPECT_EQ(metric(r.metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_ld"), 0);
  EXPECT_EQ(metric(r.metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_st"), 0);
  EXPECT_EQ(metric(r.metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), 128);
  EXPECT_EQ(metric(r.metrics, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld"), 0);
  // Per line: the wrapper's line in hopper_ptx.cuh and the call site in tma_layout.cu.
  const analysis::LineReport* call = line(r, "tma_layout.cu", 42);
  ASSERT_NE(call, nullptr);
  ASSERT_EQ(call->bulk_copies.size(), 1u);
  EXPECT_EQ(call->bulk_copies[0].cost.issues, 4u);
  EXPECT_EQ(call->bulk_copies[0].cost.swizzle_bytes, 128u);
  EXPECT_EQ(metric(call->metrics, analysis::kTmaLoadSectors), 512);
  // The footprint of the first box: 256 chunks, chunk c of row r at chunk c ^ (r % 8).
  const auto& fp = call->bulk_copies[0].cost.footprint;
  ASSERT_EQ(fp.size(), 256u);
  for (const emu::SharedChunk& k : fp)
    EXPECT_EQ(k.shared % 1024 / 16 % 8, (k.column / 16) ^ (k.row % 8)) << k.row << " " << k.column;

  const nlohmann::json j = kernel_json(r);
  EXPECT_EQ(j["metrics"][analysis::kTmaLoadSectors], 512);
  bool found = false;
  for (const auto& l : j["lines"])
    if (l.contains("bulk_copies")) {
      found = true;
      EXPECT_EQ(l["bulk_copies"][0]["global_sectors"], 512);
      EXPECT_EQ(l["bulk_copies"][0]["shared_footprint"]["chunks"].size(), 256u);
    }
  EXPECT_TRUE(found);
  const std::string text = kernel_text(r);
  EXPECT_NE(text.find("TMA and bulk copies (issues, bytes moved, global sectors/ideal):"), std::string::npos) << text;
  EXPECT_NE(text.find("4 issues        16384 bytes         512/512 sectors  128B swizzle"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find(std::string(analysis::kTmaLoadSectors) + std::string(56 - std::string(analysis::kTmaLoadSectors).size() + 1, ' ') +
                      "         512"),
            std::string::npos)
      << text;
  const std::string html = kernel_html(r, *model::find_arch("sm_90").value());
  EXPECT_NE(html.find("<svg class=\"bank-diagram footprint\" data-banks=\"32\" data-rows=\"32\" data-chunks=\"256\""),
            std::string::npos);
  EXPECT_NE(html.find("box row 1 bytes 0-15 at shared 0x"), std::string::npos);
}

// A bulk copy moves 128-byte pieces from its first byte (H200, corpus/hopper bulk_copy): from
// a 128-byte line, 4 sectors a piece; from 16 bytes past one, 5 (1280 sectors for 8 x 4096
// bytes where the ranges touch 1032).
TEST(HopperReport, BulkCopyReadsItsPiecesSectors) {
  for (const auto& [offset, sectors] : {std::pair{0, 1024}, std::pair{16, 1280}}) {
    auto b = build("bulk_copy", "bulk_copy", {{8, 1, 1}, {256, 1, 1}, 4112},
                   {"buf:65536", "buf:65536", "buf:65536", "i32:4096", "i32:" + std::to_string(offset)});
    EXPECT_EQ(metric(b->report.metrics, analysis::kTmaLoadSectors), sectors) << offset;
    EXPECT_EQ(metric(b->report.metrics, analysis::kTmaLoadBytes), 32 * sectors) << offset;
    EXPECT_EQ(metric(b->report.metrics, analysis::kTmaStoreSectors), sectors) << offset;
  }
}

// A multicast TMA load counts its sectors once per destination block (H200, cluster_dsmem: one
// 32 x 8 u32 box, 1024 bytes, to both blocks of each of 2 clusters: 128 sectors, 4096 bytes).
TEST(HopperReport, MulticastLoadCountsEachDestination) {
  auto b = build("cluster_dsmem", "cluster_dsmem", {{4, 1, 1}, {256, 1, 1}, 0},
                 {"tmap:file:data/iota_64x64.bin,dtype=u32,dims=64x64,strides=256,box=32x8,swizzle=none", "buf:4096",
                  "buf:4096", "buf:4096"});
  EXPECT_EQ(metric(b->report.metrics, analysis::kTmaLoadSectors), 128);
  EXPECT_EQ(metric(b->report.metrics, analysis::kTmaLoadBytes), 4096);
  EXPECT_EQ(metric(b->report.metrics, analysis::kTmaLoadsIssued), 2);
}

TEST(HopperReport, SwizzleMovesTheFootprint) {
  auto plain = tma_layout("none", 32);
  auto s32 = tma_layout("32B", 8);
  for (const auto& l : plain->report.lines)
    for (const auto& b : l.bulk_copies)
      for (const emu::SharedChunk& k : b.cost.footprint) EXPECT_EQ(k.shared % 128, k.column);
  for (const auto& l : s32->report.lines)
    for (const auto& b : l.bulk_copies)
      for (const emu::SharedChunk& k : b.cost.footprint)  // 32-byte rows; rows 4..7 of each 8 swap chunks
        EXPECT_EQ(k.shared % 32, k.column ^ ((k.row / 4) % 2 ? 16u : 0u)) << k.row;
}

TEST(HopperReport, LdgstsCountsAsGlobalLoadsAndItsOwnWavefronts) {
  auto b = build("cp_async_pipeline", "cp_async_pipeline", {{8, 1, 1}, {256, 1, 1}, 32784},
                 {"buf:1048576", "buf:8192", "i32:8", "i32:1", "i32:0"});
  const analysis::KernelReport& r = b->report;
  // 8 blocks x 8 tiles x 4 passes x 8 warps = 2048 LDGSTS.128, 16 sectors each read; the
  // counter counts each once per 32-byte shared chunk it lands in, 32 (H200:
  // hopper_cp_async_16_conflict, 65536).
  EXPECT_EQ(metric(r.metrics, "l1tex__t_requests_pipe_lsu_mem_global_op_ld"), 2048);
  EXPECT_EQ(metric(r.metrics, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld"), 2048 * 32);
  // Transposed by chunks: 8 lanes of a quarter-warp in one 16-byte column, 32 wavefronts.
  EXPECT_EQ(metric(r.metrics, analysis::kLdgstsWavefronts), 2048 * 32);
  EXPECT_EQ(metric(r.metrics, analysis::kLdgstsConflicts), 2048 * 28);
  EXPECT_EQ(metric(r.metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"), 0);
  // On the Source page the shared writes are wavefronts of the line (cp_async_16's asm).
  const analysis::LineReport* stage = line(r, "cp_async_pipeline.cu", 26);
  ASSERT_NE(stage, nullptr);
  EXPECT_EQ(metric(stage->metrics, analysis::kSourceWavefronts), 2048 * 32);
  EXPECT_EQ(metric(stage->metrics, analysis::kSourceWavefrontsIdeal), 2048 * 4);
}

// The H200's LDGSTS counts (batch 3): .cg copies whose line's lanes land in different
// rows count a sector per (sector, chunk) on the Source page; .ca 4-byte copies in the
// SGEMM pattern pay the L1 read's 8-way conflict and the write's 4-way, overlapped by one.
TEST(HopperReport, LdgstsConflictsAsMeasured) {
  auto transposed = build("cp_async_pipeline", "cp_async_pipeline", {{8, 1, 1}, {256, 1, 1}, 32784},
                          {"buf:1048576", "buf:8192", "i32:8", "i32:1", "i32:0"});
  const analysis::LineReport* stage = line(transposed->report, "cp_async_pipeline.cu", 26);
  ASSERT_NE(stage, nullptr);
  EXPECT_EQ(metric(stage->metrics, analysis::kSourceSectors), 65536);
  EXPECT_EQ(metric(stage->metrics, analysis::kSourceSectorsIdeal), 32768);
  auto sgemm = build("cp_async_pipeline", "cp_async_pipeline", {{8, 1, 1}, {256, 1, 1}, 32784},
                     {"buf:1048576", "buf:8192", "i32:8", "i32:3", "i32:0"});
  EXPECT_EQ(metric(sgemm->report.metrics, analysis::kLdgstsWavefronts), 90112);  // 11 per LDGSTS
  EXPECT_EQ(metric(sgemm->report.metrics, analysis::kLdgstsConflicts), 90112 - 8192);
}

// corpus/frontend/cp_async_zfill.cu: zero fill adds a pass over the quarter-warps. (Priced
// from the PTX alone, as the lanes hold their predicates: zfill_ignore_odd's LDGSTS names !P0,
// which the Source page sees as every lane reading, so its H200 figures need the SASS: the
// corpus CTest corpus_frontend_match_h200 checks them with the listing.)
TEST(HopperReport, LdgstsZeroFillAsMeasured) {
  auto zfill = [](const std::string& kernel) {
    return build("../frontend/cp_async_zfill", kernel, {{64, 1, 1}, {256, 1, 1}, 0}, {"buf:262144", "buf:262144"});
  };
  const std::vector<std::tuple<std::string, long long, long long>> cases = {
      {"zfill_full", 2048, 2048},        {"zfill_zero_all", 2048, 2048},   {"zfill_upper_zero", 3072, 3072},
      {"zfill_partial", 4096, 4096},     {"zfill_4b_upper_zero", 2048, 512}};
  for (const auto& [kernel, wavefronts, ideal] : cases) {
    auto b = zfill(kernel);
    EXPECT_EQ(metric(b->report.metrics, analysis::kLdgstsWavefronts), wavefronts) << kernel;
    const analysis::Metrics& m = b->report.metrics;
    EXPECT_EQ(metric(m, analysis::kLdgstsWavefronts) - metric(m, analysis::kLdgstsConflicts), ideal) << kernel;
  }
}

TEST(HopperReport, StmatrixIsAStoreAndTmaStoresTheTile) {
  auto plain = build("stmatrix_epilogue", "stmatrix_epilogue", {{4, 1, 1}, {128, 1, 1}, 9216},
                     {"tmap:buf:32768,dtype=f16,dims=64x256,strides=128,box=64x64,swizzle=none", "i32:0"});
  auto swz = build("stmatrix_epilogue", "stmatrix_epilogue", {{4, 1, 1}, {128, 1, 1}, 9216},
                   {"tmap:buf:32768,dtype=f16,dims=64x256,strides=128,box=64x64,swizzle=128B", "i32:1"});
  // 64 stmatrix.x4 (4 blocks x 4 warps x 4): 8-way unswizzled (32 wavefronts each), 4 swizzled.
  EXPECT_EQ(metric(plain->report.metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"), 64 * 32);
  EXPECT_EQ(metric(swz->report.metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"), 64 * 4);
  EXPECT_EQ(metric(swz->report.metrics, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st"), 0);
  EXPECT_EQ(metric(swz->report.metrics, analysis::kTmaStores), 4);
  EXPECT_EQ(metric(swz->report.metrics, analysis::kTmaStoreBytes), 32768);
}

// Triton predicates its copies (@%p, one elected lane): every warp executes the instruction,
// one lane issues it. smsp__inst_executed_op_tma_* count the warps, the sass_ forms the issues.
TEST(HopperReport, PredicatedOffWarpsCountAsExecutions) {
  std::vector<std::string> specs;
  for (int k = 0; k < 3; ++k)
    specs.insert(specs.end(), {"tmap:buf:131072,dtype=f16,dims=256x256,strides=512,box=64x64,swizzle=128B", "i32:256",
                               "i32:256", "i64:256", "i64:1"});
  specs.insert(specs.end(), {"buf:16", "buf:16"});
  auto b = build("triton/tma_add_host", "tma_add_host", {{4, 4, 1}, {128, 1, 1}, 8200}, specs);
  EXPECT_EQ(metric(b->report.metrics, analysis::kTmaLoadsIssued), 32);
  EXPECT_EQ(metric(b->report.metrics, analysis::kTmaLoads), 32 * 4);
  EXPECT_EQ(metric(b->report.metrics, analysis::kTmaStoresIssued), 16);
  EXPECT_EQ(metric(b->report.metrics, analysis::kTmaStores), 16 * 4);
}

}  // namespace
}  // namespace warpscope::report
