// sass_listing_test.cc: nvdisasm listings of the examples, read back.
#include "sass/sass_listing.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace warpscope::sass {
namespace {

std::string read(const std::string& name) {
  std::ifstream in(std::string(WARPSCOPE_TEST_DATA) + "/sass/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(SassListing, FindsTheVectorizedLoadsOfTheTiledGemm) {
  auto fs = parse_sass_listing(read("gemm_tiled.sass"));
  ASSERT_TRUE(fs.ok()) << fs.error().message;
  ASSERT_EQ(fs->size(), 1u);
  EXPECT_EQ((*fs)[0].name, "gemm_tiled");
  int lds128 = 0, lds32 = 0;
  for (const auto& op : (*fs)[0].memory_ops) {
    if (op.kind != Kind::SharedLoad) continue;
    EXPECT_EQ(op.file, "gemm_tiled.cu");
    EXPECT_EQ(op.line, 26);
    (op.width == 16 ? lds128 : lds32) += 1;
  }
  EXPECT_EQ(lds128, 8);  // As[ty][k..k+3], four k at a time
  EXPECT_EQ(lds32, 32);  // Bs[k][tx], one k at a time
}

TEST(SassListing, ReadsPredicatedInstructionsAndWidths) {
  auto fs = parse_sass_listing("//--- .text.k ---\n.text.k:\n\t//## File \"a.cu\", line 7\n"
                               "        /*0010*/  @!P1 STS.64 [R5], R12 ;\n"
                               "        /*0020*/  LDG.E.U8 R2, desc[UR4][R2.64] ;\n"
                               "        /*0030*/  ATOMS.POPC.INC.32 RZ, [R4+URZ] ;\n"
                               "        /*0040*/  LDC R1, c[0x0][0x28] ;\n");
  ASSERT_TRUE(fs.ok());
  const auto& ops = (*fs)[0].memory_ops;
  ASSERT_EQ(ops.size(), 3u);
  EXPECT_EQ(ops[0].kind, Kind::SharedStore);
  EXPECT_EQ(ops[0].width, 8);
  EXPECT_EQ(ops[0].line, 7);
  EXPECT_EQ(ops[0].guard.pred, 1);
  EXPECT_TRUE(ops[0].guard.negated);
  EXPECT_EQ(ops[0].address.reg, 5);
  EXPECT_EQ(ops[1].kind, Kind::GlobalLoad);
  EXPECT_EQ(ops[1].width, 1);
  EXPECT_EQ(ops[1].address.reg, 2);
  EXPECT_TRUE(ops[1].address.wide);
  EXPECT_EQ(ops[2].kind, Kind::SharedAtomic);
  EXPECT_EQ(ops[2].atomic, AtomicOp::PopcInc);
  EXPECT_TRUE(ops[2].result_unused);
  EXPECT_EQ((*fs)[0].instructions.size(), 4u);  // LDC is an instruction, not a memory op
}

TEST(SassListing, InlinedCodeKeepsItsInnermostLineAndTheCallSites) {
  auto fs = parse_sass_listing(
      ".text.k:\n"
      "\t//## File \"/src/common.cuh\", line 44 inlined at \"/src/sort.cu\", line 205\n"
      "\t//## File \"/src/sort.cu\", line 205\n"
      "        /*0250*/                   LDS R9, [R8+0x800] ;\n"
      "        /*0260*/                   LDS R10, [R8] ;\n"
      "\t//## File \"/src/sort.cu\", line 206\n"
      "        /*0270*/                   STS [R8], R9 ;\n");
  ASSERT_TRUE(fs.ok());
  const SassFunction& f = (*fs)[0];
  ASSERT_EQ(f.instructions.size(), 3u);
  EXPECT_EQ(f.instructions[0].loc, (SassLoc{"/src/common.cuh", 44}));
  ASSERT_EQ(f.instructions[0].inlined_at.size(), 1u);
  EXPECT_EQ(f.instructions[0].inlined_at[0], (SassLoc{"/src/sort.cu", 205}));
  EXPECT_EQ(f.instructions[1].loc, f.instructions[0].loc);  // no directive: the same position
  EXPECT_EQ(f.instructions[2].loc, (SassLoc{"/src/sort.cu", 206}));
  EXPECT_TRUE(f.instructions[2].inlined_at.empty());
  ASSERT_EQ(f.memory_ops.size(), 3u);
  EXPECT_EQ(f.memory_ops[0].address.imm, 0x800);
  EXPECT_EQ(f.memory_ops[0].line, 44);
  EXPECT_EQ(base_name(f.memory_ops[0].file), "common.cuh");
}

TEST(SassListing, BackwardBranchesAreLoops) {
  // ptxas's CAS loop for a shared float add: LDS, then ATOMS.CAST.SPIN until it succeeds.
  auto fs = parse_sass_listing(
      ".text.k:\n"
      "        /*0340*/                   BSSY B0, `(.L_x_0) ;\n"
      ".L_x_1:\n"
      "        /*0350*/                   LDS R6, [R4+0x20] ;\n"
      "        /*0360*/                   FADD R7, R6, 1 ;\n"
      "        /*0370*/                   ATOMS.CAST.SPIN R7, [R4+0x20], R6, R7 ;\n"
      "        /*0380*/                   ISETP.EQ.U32.AND P0, PT, R7, 0x1, PT ;\n"
      "        /*0390*/              @!P0 BRA `(.L_x_1) ;\n"
      "        /*03a0*/                   BSYNC B0 ;\n"
      ".L_x_0:\n"
      "        /*03b0*/                   BRA 0x3b0;\n");
  ASSERT_TRUE(fs.ok());
  const SassFunction& f = (*fs)[0];
  ASSERT_EQ(f.loops.size(), 2u);  // the CAS loop, and the final self-branch
  EXPECT_EQ(f.loops[0].head, 1);
  EXPECT_EQ(f.loops[0].tail, 5);
  EXPECT_EQ(f.instructions[5].branch_target, 1);
  EXPECT_EQ(f.instructions[0].branch_target, -1);  // BSSY only names where the warp reconverges
  ASSERT_EQ(f.memory_ops.size(), 2u);
  EXPECT_EQ(f.memory_ops[0].loop, 0);
  EXPECT_EQ(f.memory_ops[1].atomic, AtomicOp::Cast);
  EXPECT_EQ(f.memory_ops[1].loop, 0);
  EXPECT_FALSE(f.memory_ops[1].result_unused);
}

TEST(SassListing, DecodesAtomicForms) {
  struct Case {
    const char* text;
    Kind kind;
    AtomicOp op;
    int width;
    bool unused;
    bool float_op;
  };
  const Case cases[] = {
      {"ATOMS.ADD R10, [R18+0x20], R21", Kind::SharedAtomic, AtomicOp::Add, 4, false, false},
      {"@P0 ATOMS.MAX RZ, [R11+0x4], R14", Kind::SharedAtomic, AtomicOp::Max, 4, true, false},
      {"ATOMS.CAS.64 R4, [R0+0x18], R4, R6", Kind::SharedAtomic, AtomicOp::Cas, 8, false, false},
      {"ATOMS.CAST.SPIN.64 R6, [R19], R4, R6", Kind::SharedAtomic, AtomicOp::Cast, 8, false, false},
      {"REDG.E.ADD.F32x4.FTZ.RN.STRONG.GPU desc[UR10][R4.64], R8", Kind::GlobalReduction, AtomicOp::Add, 16, true,
       true},
      {"ATOMG.E.ADD.F64.RN.STRONG.GPU PT, R16, desc[UR10][R14.64+0x20], R20", Kind::GlobalAtomic, AtomicOp::Add, 8,
       false, true},
      {"ATOMG.E.CAS.STRONG.GPU PT, R4, [R14], R12, R13", Kind::GlobalAtomic, AtomicOp::Cas, 4, false, false},
      {"ATOM.E.ADD.F16x2.RN.STRONG.GPU P0, RZ, desc[UR6][R14.64], R19", Kind::GenericAtomic, AtomicOp::Add, 4, true,
       true},
      {"ATOM.E.ADD.S32.STRONG.GPU PT, R28, desc[UR10][R14.64+0x28], R13", Kind::GenericAtomic, AtomicOp::Add, 4,
       false, false},
  };
  for (const Case& c : cases) {
    auto fs = parse_sass_listing(std::string(".text.k:\n        /*0010*/   ") + c.text + " ;\n");
    ASSERT_TRUE(fs.ok());
    ASSERT_EQ((*fs)[0].memory_ops.size(), 1u) << c.text;
    const SassMemoryOp& op = (*fs)[0].memory_ops[0];
    EXPECT_EQ(op.kind, c.kind) << c.text;
    EXPECT_EQ(op.atomic, c.op) << c.text;
    EXPECT_EQ(op.width, c.width) << c.text;
    EXPECT_EQ(op.result_unused, c.unused) << c.text;
    EXPECT_EQ(op.float_op, c.float_op) << c.text;
  }
}

TEST(SassListing, AddressForms) {
  struct Case {
    const char* operands;
    int reg, ureg;
    std::int64_t imm;
  };
  const Case cases[] = {
      {"R9, [R8+0x800]", 8, -1, 0x800},     {"R4, [UR12+0xc00]", -1, 12, 0xc00},
      {"[R2+UR4], R3", 2, 4, 0},            {"R25, desc[UR6][R10.64+-0x8]", 10, -1, -8},
      {"RZ, [R18+URZ]", 18, -1, 0},         {"[R4.U32+UR4+0x10], R2", 4, 4, 0x10},
  };
  for (const Case& c : cases) {
    SassAddress a;
    ASSERT_TRUE(parse_address(c.operands, a)) << c.operands;
    EXPECT_EQ(a.reg, c.reg) << c.operands;
    EXPECT_EQ(a.ureg, c.ureg) << c.operands;
    EXPECT_EQ(a.imm, c.imm) << c.operands;
  }
  SassAddress a;
  EXPECT_FALSE(parse_address("R1, R2", a));
  EXPECT_FALSE(parse_address("R1, [R2+garbage]", a));
}

TEST(SassListing, NoFunctionIsAnError) {
  EXPECT_FALSE(parse_sass_listing("garbage\n").ok());
}

}  // namespace
}  // namespace warpscope::sass
