// sass_lines_test.cc: each PTX access's Source-page lines, from the SASS it became.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "analysis/sass_match.h"
#include "analysis/sass_plan.h"
#include "ptx/parser.h"
#include "sass/line_table.h"

namespace warpscope::analysis {
namespace {

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// (line, weight) of each line the access is shown at.
std::vector<std::pair<int, double>> lines(const SassPlan& plan, const ptx::Instruction& inst) {
  std::vector<std::pair<int, double>> out;
  if (const auto* shares = plan.lines_of(&inst))
    for (const LineShare& s : *shares)
      for (const sass::SassLoc& l : s.lines) out.emplace_back(l.line, s.weight);
  return out;
}

std::vector<const ptx::Instruction*> accesses(const ptx::Module& m, ptx::Opcode op) {
  std::vector<const ptx::Instruction*> out;
  for (const ptx::Function& f : m.functions)
    for (const ptx::Instruction& i : f.body)
      if (i.opcode == op) out.push_back(&i);
  return out;
}

// rows.cu: put() inlined at lines 9 and 10 stores at line 4. ptxas's line table has the call
// sites' rows where the instances begin, not at the stores: ncu shows both at line 4 only
// (the .loc lines would also count them at 9 and 10).
TEST(SassLines, InlinedStoresAreShownAtTheHelpersLineOnly) {
  const std::string dir = std::string(WARPSCOPE_TEST_DATA) + "/sass/rows/";
  auto m = ptx::parse(read(dir + "rows.ptx"), "rows.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto rows = sass::read_line_rows(read(dir + "rows.cubin"));
  ASSERT_TRUE(rows.ok()) << rows.error().message;
  auto fs = sass::parse_sass_listing(sass::annotate_listing(read(dir + "rows.sass.raw"), *rows));
  ASSERT_TRUE(fs.ok());
  const SassPlan plan = plan_from_sass(*m, *fs);
  const auto stores = accesses(*m, ptx::Opcode::St);
  ASSERT_EQ(stores.size(), 2u);
  for (const ptx::Instruction* st : stores) EXPECT_EQ(lines(plan, *st), (std::vector<std::pair<int, double>>{{4, 1.0}}));
  // Without rows (nvdisasm's text as it is) the plan names no lines: the .loc rule applies.
  auto plain = sass::parse_sass_listing(read(dir + "rows.sass.raw"));
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(lines(plan_from_sass(*m, *plain), *stores[0]).empty());
}

// ncu's Source page sees an LDGSTS whose source-valid predicate is P0 as every lane zero-filling,
// !P0 as every lane reading (model/ldgsts_cost.h; H200, corpus/hopper cp_async_predicate and
// cp_async_prologue: 4 and 6 wavefronts a warp execution for the same addresses).
TEST(SassLines, CopiesWhoseLdgstsNameP0AreSeenByTheirPredicate) {
  const std::string dir = std::string(WARPSCOPE_TEST_DATA) + "/sass/predicate/";
  using model::SeenPredicate;
  for (const auto& [name, want] : std::vector<std::pair<std::string, SeenPredicate>>{
           {"cp_async_predicate", SeenPredicate::AllZero}, {"cp_async_prologue", SeenPredicate::AllRead}}) {
    auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/hopper/" + name + ".ptx"), name + ".ptx");
    ASSERT_TRUE(m.ok()) << m.error().message;
    auto rows = sass::read_line_rows(read(dir + name + ".cubin"));
    ASSERT_TRUE(rows.ok()) << rows.error().message;
    auto fs = sass::parse_sass_listing(sass::annotate_listing(read(dir + name + ".sass.raw"), *rows));
    ASSERT_TRUE(fs.ok());
    const SassPlan plan = plan_from_sass(*m, *fs);
    const auto copies = accesses(*m, ptx::Opcode::CpAsync);
    ASSERT_EQ(copies.size(), 8u) << name;
    for (const ptx::Instruction* c : copies) {
      auto it = plan.copy_predicates.find(c);
      ASSERT_NE(it, plan.copy_predicates.end()) << name;
      EXPECT_EQ(it->second, want) << name;
    }
  }
}

TEST(SassLines, OnlyTheRegisterP0IsSeenOtherwiseThanHeld) {
  auto ldgsts = [](std::vector<std::string> modifiers, std::string operands) {
    sass::SassInstruction s;
    s.opcode = "LDGSTS";
    s.modifiers = std::move(modifiers);
    s.operands = std::move(operands);
    return s;
  };
  using model::SeenPredicate;
  auto seen = [&](std::vector<std::string> modifiers, std::string operands) {
    return detail::ldgsts_seen_predicate(ldgsts(std::move(modifiers), std::move(operands)));
  };
  EXPECT_EQ(seen({"E", "BYPASS", "128"}, "[R47], desc[UR28][R20.64], P0"), SeenPredicate::AllZero);
  EXPECT_EQ(seen({"E", "BYPASS", "128"}, "[R47+0x1000], desc[UR28][R22.64], P0 "), SeenPredicate::AllZero);
  EXPECT_EQ(seen({"E", "BYPASS", "128"}, "[R47], desc[UR28][R20.64], !P0"), SeenPredicate::AllRead);
  EXPECT_EQ(seen({"E"}, "[R37+0xc000], desc[UR14][R28.64], P0"), SeenPredicate::Lanes);  // .ca, 4 bytes
  EXPECT_EQ(seen({"E", "128"}, "[R12], desc[UR6][R2.64], !P0"), SeenPredicate::Lanes);   // .ca, 16 bytes
  EXPECT_EQ(seen({"E", "BYPASS", "128"}, "[R47], desc[UR28][R20.64], P1"), SeenPredicate::Lanes);
  EXPECT_EQ(seen({"E", "BYPASS", "128"}, "[R47], desc[UR28][R20.64], !P1"), SeenPredicate::Lanes);
  EXPECT_EQ(seen({"E", "BYPASS", "128"}, "[R47], desc[UR28][R20.64], P4"), SeenPredicate::Lanes);
  EXPECT_EQ(seen({"E", "BYPASS", "128"}, "[R47], desc[UR28][R20.64]"), SeenPredicate::Lanes);
  EXPECT_EQ(seen({"E", "BYPASS", "128", "ZFILL"}, "[R12], desc[UR6][R2.64], P0"), SeenPredicate::Lanes);
  sass::SassInstruction lds = ldgsts({"128"}, "R8, [R22], P0");
  lds.opcode = "LDS";
  EXPECT_EQ(detail::ldgsts_seen_predicate(lds), std::nullopt);
}

// nvdisasm prints the inlining chain only where it changes: two back-to-back instances of one
// helper (llm.c's Pack128::load at lines 93 and 94) both read "line 30 inlined at line 93"; the
// line table's rows name the second one's call site (94). Without a call-site row, the chain's.
TEST(SassLines, CallSiteFromTheRowsWhereTheChainIsStale) {
  sass::SassInstruction i;
  i.loc = {"k.cu", 30};
  i.inlined_at = {{"k.cu", 93}};
  i.source_lines = {{"k.cu", 94}, {"k.cu", 30}};
  EXPECT_EQ(detail::line_of(i).at_line, 94);
  i.source_lines = {{"k.cu", 93}, {"k.cu", 30}};
  EXPECT_EQ(detail::line_of(i).at_line, 93);
  i.source_lines = {{"k.cu", 30}};
  EXPECT_EQ(detail::line_of(i).at_line, 93);
  i.source_lines = {};
  EXPECT_EQ(detail::line_of(i).at_line, 93);
}

// wgmma and HGMMA forms: N and where A comes from (Triton's attention: QK^T with A in shared
// memory beside PV with A in registers; only one form's instructions pair).
TEST(SassLines, GmmaFormsNameNAndTheAOperandsSource) {
  sass::SassInstruction pv, qk, lds;
  pv.opcode = qk.opcode = "HGMMA";
  pv.modifiers = qk.modifiers = {"64x64x16", "F32"};
  pv.operands = "R56, R88, gdesc[UR12].tnspB, R56";
  qk.operands = "R24, gdesc[UR12], RZ, !UPT";
  lds.opcode = "LDS";
  EXPECT_EQ(detail::gmma_form(pv), "64r");
  EXPECT_EQ(detail::gmma_form(qk), "64d");
  EXPECT_EQ(detail::gmma_form(lds), "");
  auto m = ptx::parse(read(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/tensor/wgmma_probe.ptx"), "w.ptx");
  ASSERT_TRUE(m.ok());
  int rs = 0, ss = 0;
  for (const ptx::Function& f : m->functions)
    for (const ptx::Instruction& i : f.body) {
      if (i.opcode != ptx::Opcode::Wgmma) continue;
      const std::string form = detail::gmma_form(i);
      const std::string n = f.name.substr(f.name.find("_n") + 2, f.name.find_first_not_of("0123456789", f.name.find("_n") + 2) - f.name.find("_n") - 2);
      EXPECT_EQ(form, n + (f.name.rfind("rs_", 0) == 0 ? "r" : "d")) << f.name;
      ++(f.name.rfind("rs_", 0) == 0 ? rs : ss);
    }
  EXPECT_GT(rs, 0);
  EXPECT_GT(ss, 0);
}

constexpr const char* kPtx = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .f32 %f<2>;
  .shared .align 4 .b8 s[128];
  .loc 1 20 3
  ld.shared.f32 %f1, [s];
  .loc 1 21 3
  st.shared.f32 [s+4], %f1;
  ret;
}
.file 1 "k.cu"
)";

// A loop ptxas unrolled, its copies scheduled onto lines 17 and 18 (as wgmma_probe's HGMMA
// at the loop's line and the fence's): no LDS is at line 20, the load's own.
constexpr const char* kListing = R"(
.text.k:
	//## File "k.cu", line 17
	//## Row "k.cu", line 17
        /*0000*/                   LDS R0, [UR4] ;
	//## File "k.cu", line 18
	//## Row "k.cu", line 18
        /*0010*/                   LDS R1, [UR4] ;
        /*0020*/                   LDS R2, [UR4] ;
	//## File "k.cu", line 17
	//## Row "k.cu", line 17
        /*0030*/                   LDS R3, [UR4] ;
	//## File "k.cu", line 18
	//## Row "k.cu", line 18
        /*0040*/                   LDS R3, [UR4] ;
        /*0050*/              @!PT LDS RZ, [RZ] ;
	//## File "k.cu", line 21
	//## Row "k.cu", line 21
	//## Row "k.cu", line 5
        /*0060*/                   STS [UR4+0x4], R3 ;
        /*0070*/                   EXIT ;
)";

TEST(SassLines, CopiesOnOtherLinesShareTheCost) {
  auto m = ptx::parse(kPtx, "k.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto fs = sass::parse_sass_listing(kListing);
  ASSERT_TRUE(fs.ok());
  const SassPlan plan = plan_from_sass(*m, *fs);
  const auto ld = accesses(*m, ptx::Opcode::Ld), st = accesses(*m, ptx::Opcode::St);
  ASSERT_EQ(ld.size(), 1u);
  ASSERT_EQ(st.size(), 1u);
  // Five copies that run (not the @!PT one): two at line 17, three at 18.
  EXPECT_EQ(lines(plan, *ld[0]), (std::vector<std::pair<int, double>>{{17, 0.4}, {18, 0.6}}));
  // Every row at the store's address: its line and line 5.
  EXPECT_EQ(lines(plan, *st[0]), (std::vector<std::pair<int, double>>{{21, 1.0}, {5, 1.0}}));
}

// Two loops, a load in each (lines 10 and 11 in the PTX); ptxas put each loop's LDS at the other
// loop's line. By line alone, each PTX load would pair with the other loop's LDS; ptxas keeps
// the loops' order, so each loop's accesses pair with its own instructions (Triton's causal
// attention: the diagonal loop's HGMMA at lines the other loop's HGMMA also has).
constexpr const char* kTwoLoops = R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
  .reg .pred %p<3>;
  .reg .f32 %f<3>;
  .reg .b32 %r<3>;
  .shared .align 4 .b8 s[128];
  mov.u32 %r1, 0;
$L1:
  .loc 1 10 3
  ld.shared.f32 %f1, [s];
  add.s32 %r1, %r1, 1;
  setp.lt.s32 %p1, %r1, 4;
  @%p1 bra $L1;
  mov.u32 %r2, 0;
$L2:
  .loc 1 11 3
  ld.shared.f32 %f2, [s+64];
  add.s32 %r2, %r2, 1;
  setp.lt.s32 %p2, %r2, 4;
  @%p2 bra $L2;
  ret;
}
.file 1 "k.cu"
)";

constexpr const char* kTwoLoopsListing = R"(
.text.k:
.L_x_0:
	//## File "k.cu", line 11
	//## Row "k.cu", line 11
        /*0000*/                   LDS R0, [UR4] ;
        /*0010*/               @P0 BRA `(.L_x_0) ;
.L_x_1:
	//## File "k.cu", line 10
	//## Row "k.cu", line 10
        /*0020*/                   LDS R2, [UR4+0x40] ;
        /*0030*/               @P1 BRA `(.L_x_1) ;
        /*0040*/                   EXIT ;
)";

TEST(SassLines, EachLoopsAccessesPairWithThatLoopsInstructions) {
  auto m = ptx::parse(kTwoLoops, "k.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto fs = sass::parse_sass_listing(kTwoLoopsListing);
  ASSERT_TRUE(fs.ok());
  ASSERT_EQ((*fs)[0].loops.size(), 2u);
  const SassPlan plan = plan_from_sass(*m, *fs);
  const auto ld = accesses(*m, ptx::Opcode::Ld);
  ASSERT_EQ(ld.size(), 2u);
  EXPECT_EQ(lines(plan, *ld[0]), (std::vector<std::pair<int, double>>{{11, 1.0}}));
  EXPECT_EQ(lines(plan, *ld[1]), (std::vector<std::pair<int, double>>{{10, 1.0}}));
}

constexpr const char* kDots = R"(
.version 8.0
.target sm_90a
.address_size 64
.visible .entry k()
{
  .reg .f32 %f<32>;
  .reg .b64 %rd<3>;
  mov.u64 %rd1, 0;
  mov.u64 %rd2, 0;
  wgmma.fence.sync.aligned;
  .loc 1 10 3
  wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16,%f17,%f18,%f19,%f20,%f21,%f22,%f23,%f24,%f25,%f26,%f27,%f28,%f29,%f30,%f31}, %rd1, %rd2, 1, 1, 1, 0, 0;
  wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16,%f17,%f18,%f19,%f20,%f21,%f22,%f23,%f24,%f25,%f26,%f27,%f28,%f29,%f30,%f31}, %rd1, %rd2, 1, 1, 1, 0, 0;
  .loc 1 12 3
  wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16,%f17,%f18,%f19,%f20,%f21,%f22,%f23,%f24,%f25,%f26,%f27,%f28,%f29,%f30,%f31}, %rd1, %rd2, 1, 1, 1, 0, 0;
  wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {%f0,%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8,%f9,%f10,%f11,%f12,%f13,%f14,%f15,%f16,%f17,%f18,%f19,%f20,%f21,%f22,%f23,%f24,%f25,%f26,%f27,%f28,%f29,%f30,%f31}, %rd1, %rd2, 1, 1, 1, 0, 0;
  wgmma.commit_group.sync.aligned;
  wgmma.wait_group.sync.aligned 0;
  ret;
}
.file 1 "k.cu"
)";

// ptxas put three of the four HGMMA at line 10 and one at 11, none at 12 (as it spreads the
// dots of Triton's fused attention backward over each other's lines).
constexpr const char* kDotsListing = R"(
.text.k:
	//## File "k.cu", line 10
	//## Row "k.cu", line 10
        /*0000*/                   HGMMA.64x64x16.F32 R0, gdesc[UR4], R0 ;
        /*0010*/                   HGMMA.64x64x16.F32 R0, gdesc[UR8], R0 ;
	//## File "k.cu", line 11
	//## Row "k.cu", line 11
        /*0020*/                   HGMMA.64x64x16.F32 R32, gdesc[UR12], R32 ;
	//## File "k.cu", line 10
	//## Row "k.cu", line 10
        /*0030*/                   HGMMA.64x64x16.F32 R32, gdesc[UR16], R32 ;
        /*0040*/                   EXIT ;
)";

// As many wgmma as HGMMA of one form: one to one, those at one line first, the rest in order,
// so each line has the HGMMA ncu shows there (every one of a form costs the same).
TEST(SassLines, AsManyWgmmaAsHgmmaPairOneToOne) {
  auto m = ptx::parse(kDots, "k.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  auto fs = sass::parse_sass_listing(kDotsListing);
  ASSERT_TRUE(fs.ok());
  const SassPlan plan = plan_from_sass(*m, *fs);
  const auto dots = accesses(*m, ptx::Opcode::Wgmma);
  ASSERT_EQ(dots.size(), 4u);
  using Lines = std::vector<std::pair<int, double>>;
  EXPECT_EQ(lines(plan, *dots[0]), (Lines{{10, 1.0}}));
  EXPECT_EQ(lines(plan, *dots[1]), (Lines{{10, 1.0}}));
  EXPECT_EQ(lines(plan, *dots[2]), (Lines{{11, 1.0}}));
  EXPECT_EQ(lines(plan, *dots[3]), (Lines{{10, 1.0}}));
}

}  // namespace
}  // namespace warpscope::analysis
