// timing_dependent_test.cc: a shared float atomicAdd is a CAS retry loop: its line is priced
// with the rounds the warp's own lanes force (here 4 words, 8 lanes each: 8 rounds of LDS +
// ATOMS.CAST) and marked timing-dependent in the JSON, text and HTML reports; other lines not.
#include <gtest/gtest.h>

#include <algorithm>

#include "analysis/cost_listener.h"
#include "analysis/kernel_report.h"
#include "ptx/parser.h"
#include "report/html_writer.h"
#include "report/kernel_json.h"
#include "report/kernel_text.h"

namespace warpscope::report {
namespace {

constexpr const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "cas.cu"
.visible .entry cas_add(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .f32 %f<4>;
  .reg .b64 %rd<4>;
  .shared .align 4 .b8 s[64];
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 3;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  .loc 1 9 3
  st.shared.u32 [%r4], 0;
  bar.sync 0;
  .loc 1 10 3
  atom.shared.add.f32 %f1, [%r4], 0f3F800000;
  .loc 1 11 3
  ld.param.u64 %rd1, [out];
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.f32 [%rd3], %f1;
  ret;
}
)";

analysis::KernelReport cas_report() {
  auto m = ptx::parse(kPtx, "cas.ptx");
  EXPECT_TRUE(m) << m.error().render();
  static ptx::Module module;
  module = std::move(*m);
  emu::GlobalMemory memory;
  const auto out = memory.allocate(32 * 4, "out");
  const model::Arch& arch = **model::find_arch("sm_90");
  auto run = emu::run(module, "cas_add", {{1, 1, 1}, {32, 1, 1}}, {emu::KernelArg::of(out)}, memory, {},
                      [&arch] { return std::make_unique<analysis::CostListener>(arch); });  // no listing: predicted
  EXPECT_TRUE(run) << run.error().render();
  return analysis::build_kernel_report(module, "cas_add", {{1, 1, 1}, {32, 1, 1}}, *run, 1, {});
}

TEST(TimingDependent, CasLoopLineIsPricedByRoundsAndMarked) {
  const analysis::KernelReport r = cas_report();
  // 8 rounds: every round's LDS reads 4 words in 4 banks (1 wavefront); ATOMS.CAST does not
  // serialize the lanes on one word and counts its two operands: 2 a round, no conflict (H200:
  // corpus/sass atom_shared_forms).
  EXPECT_EQ(r.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), 8);
  EXPECT_EQ(r.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom"), 16);
  EXPECT_EQ(r.metrics.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom"), 0);
  const nlohmann::json j = kernel_json(r);
  EXPECT_TRUE(j["timing_dependent"].get<bool>());
  // The kernel totals the loop adds to are named; the store's are exact.
  const auto names = j["timing_dependent_metrics"].get<std::vector<std::string>>();
  EXPECT_NE(std::find(names.begin(), names.end(), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld"), names.end());
  EXPECT_EQ(std::find(names.begin(), names.end(), "l1tex__t_sectors_pipe_lsu_mem_global_op_st"), names.end());
  int marked = 0;
  for (const auto& line : j["lines"]) {
    const bool td = line["timing_dependent"].get<bool>();
    EXPECT_EQ(td, line["line"] == 10) << line.dump();
    marked += td;
    if (line["line"] == 10) {
      ASSERT_EQ(line["instructions"].size(), 2u);  // the atomic and its loop's load
      EXPECT_EQ(line["metrics"]["L1 Wavefronts Shared"], 24);
    }
  }
  EXPECT_EQ(marked, 1);
  const std::string text = kernel_text(r);
  EXPECT_NE(text.find("cas.cu:10 ~"), std::string::npos) << text;
  EXPECT_NE(text.find("~ timing-dependent"), std::string::npos);
  EXPECT_EQ(text.find("cas.cu:11 ~"), std::string::npos);
}

TEST(TimingDependent, HtmlSaysSoOnTheLine) {
  const analysis::KernelReport r = cas_report();
  const std::string html = kernel_html(r, **model::find_arch("sm_90"));
  EXPECT_NE(html.find("class=\"timing\""), std::string::npos);
  EXPECT_NE(html.find("Timing-dependent: this line runs a loop whose trips depend on timing between warps or blocks: a "
                      "compare-and-swap retry loop"),
            std::string::npos);
}

}  // namespace
}  // namespace warpscope::report
