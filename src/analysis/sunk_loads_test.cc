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

// Triton's two-tile epilogue: another tile's load and store come between the sunk load and its
// store (program order: load, other load, other store, store); the load stays held past them.
TEST(SunkLoads, AccessesBetweenTheLoadAndItsStoreKeepItHeld) {
  std::vector<ptx::Instruction> body(4);  // one function's instructions, in program order
  Recorder rec;
  SunkLoads s(rec);
  emu::AccessEvent load;
  load.instruction = &body[0];
  load.access.mask = 0xffffffffu;
  s.hold(load, &body[3]);
  for (int k : {1, 2}) {
    emu::AccessEvent between;
    between.instruction = &body[static_cast<std::size_t>(k)];
    between.access.mask = 0xffffffffu;
    s.touch(between);
  }
  EXPECT_TRUE(rec.masks.empty());
  emu::AccessEvent st;
  st.instruction = &body[3];
  st.access.mask = 0x0000ff00u;
  s.touch(st);
  EXPECT_EQ(rec.masks, (std::vector<std::uint32_t>{0xff00u}));
}

// Loads before a branch that skips the loop their values are used in (Liger's poly_norm
// backward: W[0..2] before `for row in range(row_start, row_end)`): ptxas moves them past the
// branch (@P1 BRA; LDG), so a warp that skips the loop never loads them.
constexpr const char* kLoopEntryPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 w, .param .u64 out, .param .u32 n)
{
  .reg .pred %p<3>;
  .reg .b32 %r<9>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [w];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %ctaid.x;
  .loc 1 10 3
  ld.global.b32 %r3, [%rd1];
  .loc 1 11 3
  ld.global.b32 %r4, [%rd1+4];
  .loc 1 12 3
  setp.ge.s32 %p1, %r2, %r1;
  @%p1 bra $L__done;
  mov.u32 %r5, %r2;
$L__loop:
  .loc 1 13 5
  add.u32 %r6, %r3, %r4;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd3, %rd2, %rd3;
  st.global.b32 [%rd3], %r6;
  add.u32 %r5, %r5, 1;
  setp.lt.s32 %p2, %r5, %r1;
  @%p2 bra $L__loop;
$L__done:
  ret;
}
.file 1 "k.cu"
)";

std::string loop_entry_listing(bool sunk) {
  const std::string loads = R"(
	//## File "k.cu", line 10
        /*0020*/                   LDG.E R4, desc[UR4][R2.64] ;
	//## File "k.cu", line 11
        /*0030*/                   LDG.E R5, desc[UR4][R2.64+0x4] ;
)";
  const std::string branch = R"(
	//## File "k.cu", line 12
        /*0010*/                   ISETP.GE.AND P1, PT, R0, UR6, PT ;
        /*0018*/               @P1 BRA `(.L_x_1) ;
)";
  return std::string(".text.k:\n") + (sunk ? branch + loads : loads + branch) + R"(
.L_x_0:
	//## File "k.cu", line 13
        /*0040*/                   STG.E desc[UR4][R6.64], R7 ;
        /*0050*/              @P2 BRA `(.L_x_0) ;
.L_x_1:
        /*0060*/                   EXIT ;
)";
}

TEST(SassSink, LoadsBeforeALoopsEntryRunOnlyWhenTheWarpEntersIt) {
  auto m = ptx::parse(kLoopEntryPtx, "k.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  for (bool sunk : {true, false}) {
    auto fs = sass::parse_sass_listing(loop_entry_listing(sunk));
    ASSERT_TRUE(fs.ok()) << fs.error().message;
    const SassPlan plan = plan_from_sass(*m, *fs);
    int held = 0;
    for (const ptx::Instruction& inst : m->functions[0].body)
      if (inst.opcode == ptx::Opcode::Ld && inst.space == ptx::Space::Global) {
        const InstructionPlan* r = plan.role(&inst);
        if (r != nullptr && r->sunk_until != nullptr) {
          ++held;
          ASSERT_NE(r->sunk_into, nullptr);
          EXPECT_EQ(r->sunk_into->opcode, ptx::Opcode::Mov);  // the region: the loop's entry on
        }
      }
    EXPECT_EQ(held, sunk ? 2 : 0) << (sunk ? "BRA before the loads" : "loads before the BRA");
  }
}

TEST(SunkLoads, RegionLoadsRunWhenTheWarpGoesOnIntoTheRegion) {
  ptx::Instruction body[4];  // [0] another load before the branch, [1, 3) the region, [3] after
  Recorder rec;
  SunkLoads s(rec);
  emu::AccessEvent load;
  load.access.mask = 0xffffffffu;
  auto at = [&](int i, int warp) {
    emu::AccessEvent e;
    e.warp = warp;
    e.instruction = &body[i];
    e.access.mask = 0x1u;
    return e;
  };
  for (int warp : {0, 1}) {
    load.warp = warp;
    s.hold(load, &body[1], &body[3]);
    s.hold(load, &body[1], &body[3]);
  }
  s.touch(at(0, 0));  // warp 0: not at the branch yet
  EXPECT_TRUE(rec.masks.empty());
  s.touch(at(2, 0));  // in the region: both loads run, with their own lanes
  EXPECT_EQ(rec.masks, (std::vector<std::uint32_t>{0xffffffffu, 0xffffffffu}));
  s.touch(at(3, 1));  // warp 1 skipped the region: never loads
  s.touch(at(2, 1));
  EXPECT_EQ(rec.masks.size(), 2u);
}

}  // namespace
}  // namespace warpscope::analysis
