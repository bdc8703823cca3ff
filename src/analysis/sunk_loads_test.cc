// sunk_loads_test.cc: a load ptxas moved past an early exit (sass_sink.cc finds it; sunk_loads.h
// runs it for its store's lanes), in the shape of Triton's masked store of a reduction
// (corpus/frontend/triton_masked_pipelined_sum: @!P1 EXIT; LDS; STG).
#include "analysis/sunk_loads.h"

#include <gtest/gtest.h>

#include "analysis/sass_plan.h"
#include "ptx/parser.h"

namespace warpscope::analysis {
namespace {

constexpr const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  .shared .align 4 .b8 s[128];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  bar.sync 0;
  .loc 1 20 3
  ld.shared.b32 %r2, [s];
  .loc 1 21 3
  setp.lt.u32 %p1, %r1, 32;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd2, %rd1, %rd2;
  @%p1 st.global.b32 [%rd2], %r2;
  ret;
}
.file 1 "k.cu"
)";

std::string listing(bool exit_first) {
  return std::string(R"(
.text.k:
	//## File "k.cu", line 21
        /*0000*/                   ISETP.GE.U32.AND P1, PT, R0, 0x20, PT ;
)") + (exit_first ? "        /*0010*/               @P1 EXIT ;\n" : "") + R"(
	//## File "k.cu", line 20
        /*0020*/                   LDS R5, [UR4] ;
	//## File "k.cu", line 21
        /*0030*/              @!P1 STG.E desc[UR10][R2.64], R5 ;
        /*0040*/                   EXIT ;
)";
}

const ptx::Instruction* first(const ptx::Module& m, ptx::Opcode op, ptx::Space space) {
  for (const ptx::Instruction& inst : m.functions[0].body)
    if (inst.opcode == op && inst.space == space) return &inst;
  return nullptr;
}

TEST(SassSink, ALoadAfterAPredicatedExitRunsForItsStoresLanes) {
  auto m = ptx::parse(kPtx, "k.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto fs = sass::parse_sass_listing(listing(true));
  ASSERT_TRUE(fs.ok());
  const SassPlan plan = plan_from_sass(*m, *fs);
  const ptx::Instruction* ld = first(*m, ptx::Opcode::Ld, ptx::Space::Shared);
  const ptx::Instruction* st = first(*m, ptx::Opcode::St, ptx::Space::Global);
  ASSERT_NE(ld, nullptr);
  ASSERT_NE(plan.role(ld), nullptr);
  EXPECT_EQ(plan.role(ld)->sunk_into, st);
  EXPECT_EQ(plan.sunk_loads, 1);
  // Without the early exit in the listing, the load runs for every lane, as written.
  auto plain = sass::parse_sass_listing(listing(false));
  ASSERT_TRUE(plain.ok());
  const SassPlan as_written = plan_from_sass(*m, *plain);
  EXPECT_TRUE(as_written.role(ld) == nullptr || as_written.role(ld)->sunk_into == nullptr);
  EXPECT_EQ(as_written.sunk_loads, 0);
}

struct Recorder final : MergeAssembler::Sink {
  std::vector<std::uint32_t> masks;
  void run(const emu::AccessEvent&, const model::WarpAccess& access) override { masks.push_back(access.mask); }
};

TEST(SunkLoads, RunsForTheStoresLanesOrNotAtAll) {
  ptx::Instruction store, other;
  Recorder rec;
  SunkLoads s(rec);
  emu::AccessEvent load;
  load.warp = 0;
  load.access.mask = 0xffffffffu;
  emu::AccessEvent st;
  st.instruction = &store;
  st.access.mask = 0x0000000fu;
  s.hold(load, &store);
  s.touch(st);
  EXPECT_EQ(rec.masks, (std::vector<std::uint32_t>{0xfu}));
  // Warp 1's store never comes (no lane stores): its load never runs.
  load.warp = 1;
  s.hold(load, &store);
  emu::AccessEvent elsewhere;
  elsewhere.warp = 1;
  elsewhere.instruction = &other;
  s.touch(elsewhere);
  s.hold(load, &store);
  s.end_block(0);
  s.touch(st);  // warp 0 holds nothing now
  EXPECT_EQ(rec.masks.size(), 1u);
}

}  // namespace
}  // namespace warpscope::analysis
