// atomic_counters_test.cc: what ncu's kernel counters count for global atomics beyond the
// Source page (H200, batch 3): a RED or ATOM serves the lanes on one address in passes, each
// sending its addresses' sectors (l1tex__t_sectors ... op_red/op_atom), while the Source page's
// "L2 Theoretical Sectors Global" counts the distinct sectors; and a generic-address ATOM's
// passes are also counted as shared op_atom wavefronts (not on the Source page).
#include <gtest/gtest.h>

#include "analysis/cost_listener.h"
#include "analysis/kernel_report.h"
#include "ptx/parser.h"
#include "report/kernel_json.h"

namespace warpscope::report {
namespace {

// Lane l adds to word l % 8 of `w` (4 lanes a word, one sector): red.global, then a generic
// atom whose result is stored.
constexpr const char* kPtx = R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "atom.cu"
.visible .entry atoms(.param .u64 w, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 7;
  ld.param.u64 %rd1, [w];
  cvta.to.global.u64 %rd2, %rd1;
  mul.wide.u32 %rd3, %r1, 4;
  add.s64 %rd4, %rd2, %rd3;
  .loc 1 5 3
  red.global.add.u32 [%rd4], 1;
  add.s64 %rd5, %rd1, %rd3;
  .loc 1 6 3
  atom.add.u32 %r2, [%rd5], 1;
  .loc 1 7 3
  ld.param.u64 %rd6, [out];
  cvta.to.global.u64 %rd7, %rd6;
  mul.wide.u32 %rd3, %r0, 4;
  add.s64 %rd7, %rd7, %rd3;
  st.global.u32 [%rd7], %r2;
  ret;
}
)";

analysis::KernelReport atom_report() {
  auto m = ptx::parse(kPtx, "atom.ptx");
  EXPECT_TRUE(m) << m.error().render();
  static ptx::Module module;
  module = std::move(*m);
  emu::GlobalMemory memory;
  const auto w = memory.allocate(64, "w");
  const auto out = memory.allocate(32 * 4, "out");
  const model::Arch& arch = **model::find_arch("sm_90");
  auto run = emu::run(module, "atoms", {{1, 1, 1}, {32, 1, 1}}, {emu::KernelArg::of(w), emu::KernelArg::of(out)},
                      memory, {}, [&arch] { return std::make_unique<analysis::CostListener>(arch); });
  EXPECT_TRUE(run) << run.error().render();
  return analysis::build_kernel_report(module, "atoms", {{1, 1, 1}, {32, 1, 1}}, *run, 1, {});
}

TEST(AtomicCounters, KernelSectorsCountPassesAndGenericAtomsCountWavefronts) {
  const analysis::KernelReport r = atom_report();
  EXPECT_EQ(r.metrics.at("l1tex__t_requests_pipe_lsu_mem_global_op_red"), 1);
  EXPECT_EQ(r.metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_red"), 4);   // 4 passes of 1 sector
  EXPECT_EQ(r.metrics.at("l1tex__t_requests_pipe_lsu_mem_global_op_atom"), 1);
  EXPECT_EQ(r.metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_atom"), 4);
  EXPECT_EQ(r.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom"), 4);  // the ATOM's passes
  EXPECT_EQ(r.metrics.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom"), 0);
  EXPECT_EQ(r.metrics.at("l1tex__t_sectors_pipe_lsu_mem_global_op_st"), 4);
  EXPECT_FALSE(r.timing_dependent);
  for (const analysis::LineReport& l : r.lines) {
    if (l.line == 5 || l.line == 6) {  // the Source page: distinct sectors, no shared wavefronts
      EXPECT_EQ(l.metrics.at(analysis::kSourceSectors), 1) << l.line;
      EXPECT_EQ(l.metrics.count(analysis::kSourceWavefronts) ? l.metrics.at(analysis::kSourceWavefronts) : 0, 0);
    }
  }
}

// A predicated STS.64 of the even lanes (two half-warp groups, 8 lanes each): 2 wavefronts; the
// bank-conflict counter takes one ideal a group (no conflict), the Source page's ideal packs the
// 16 lanes into one group (H200: rw_pred_swap_shared, Source ideal 1536 for 1664 wavefronts,
// counter 0 conflicts).
constexpr const char* kEvenStores = R"(.version 8.0
.target sm_90
.address_size 64
.file 1 "even.cu"
.visible .entry even_stores()
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  .shared .align 8 .b8 s[256];
  mov.u32 %r0, %tid.x;
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p1, %r1, 0;
  shl.b32 %r2, %r0, 3;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  mov.b64 %rd1, 0;
  .loc 1 4 3
  @%p1 st.shared.u64 [%r4], %rd1;
  ret;
}
)";

TEST(AtomicCounters, SourceIdealPacksActiveLanesWhereTheCounterTakesOneAGroup) {
  auto m = ptx::parse(kEvenStores, "even.ptx");
  ASSERT_TRUE(m) << m.error().render();
  emu::GlobalMemory memory;
  const model::Arch& arch = **model::find_arch("sm_90");
  auto run = emu::run(*m, "even_stores", {{1, 1, 1}, {32, 1, 1}}, {}, memory, {},
                      [&arch] { return std::make_unique<analysis::CostListener>(arch); });
  ASSERT_TRUE(run) << run.error().render();
  const analysis::KernelReport r = analysis::build_kernel_report(*m, "even_stores", {{1, 1, 1}, {32, 1, 1}}, *run, 1, {});
  EXPECT_EQ(r.metrics.at("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st"), 2);
  EXPECT_EQ(r.metrics.at("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st"), 0);
  EXPECT_EQ(r.metrics.at(analysis::kSourceWavefronts), 2);
  EXPECT_EQ(r.metrics.at(analysis::kSourceWavefrontsIdeal), 1);
}

}  // namespace
}  // namespace warpscope::report
