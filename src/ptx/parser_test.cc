// parser_test.cc: directives, declarations, instructions, .loc chains and errors.
#include "ptx/parser.h"

#include <gtest/gtest.h>

#include <cstring>

namespace warpscope::ptx {
namespace {

const char* kSmall = R"(//
.version 8.4
.target sm_90
.address_size 64

.extern .shared .align 16 .b8 dyn[];
.global .align 4 .u32 table[4] = {1, 2, -3, 0x10};
.const .align 4 .f32 coeff[2] = {0f3F800000, 0f40000000};
.global .align 8 .u64 counter;

.func  (.param .b32 func_retval0) twice(
	.param .b32 twice_param_0
)
{
	.reg .b32 	%r<3>;
	ld.param.u32 	%r1, [twice_param_0];
	shl.b32 	%r2, %r1, 1;
	st.param.b32 	[func_retval0+0], %r2;
	ret;
}

.visible .entry k(
	.param .u64 .ptr .global .align 4 k_param_0,
	.param .u32 k_param_1
)
.maxntid 128, 1, 1
{
	.local .align 4 .b8 	__local_depot0[16];
	.reg .pred 	%p<3>;
	.reg .b32 	%r<10>;
	.reg .b64 	%rd<5>;
	.shared .align 4 .b8 tile[512];
	.loc	1 12 3
	ld.param.u64 	%rd1, [k_param_0];
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, tile;
	setp.ge.u32 	%p1, %r1, 64;
	@!%p1 bra 	$L__BB0_2;
	.pragma "nounroll";
	.loc	2 440 9, function_name $L__info_string0, inlined_at 1 30 5
	shfl.sync.down.b32 	%r3|%p2, %r1, 16, 31, -1;
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.b32 	[param0+0], %r1;
	.param .b32 retval0;
	call.uni (retval0),
	twice,
	(
	param0
	);
	ld.param.b32 	%r4, [retval0+0];
	}
$L__BB0_2:
	ld.shared.v2.f32 	{%r5, %r6}, [%r2+-8];
	atom.shared.add.u32 	%r7, [%r2], 1;
	frobnicate.b32 %r8, %r1;
	ret;
}
	.file	1 "/tmp/k.cu"
	.file	2 "/usr/include/x.hpp", 123, 456
	.section	.debug_str
	{
$L__info_string0:
.b8 95,90,0
	}
)";

TEST(Parser, ModuleDirectives) {
  auto m = parse(kSmall, "k.ptx");
  ASSERT_TRUE(m) << m.error().render();
  EXPECT_EQ(m->version, "8.4");
  EXPECT_EQ(m->target, "sm_90");
  EXPECT_EQ(m->address_size, 64);
  EXPECT_EQ(m->files.at(1), "/tmp/k.cu");
  EXPECT_EQ(m->files.at(2), "/usr/include/x.hpp");
  ASSERT_EQ(m->functions.size(), 2u);
  EXPECT_FALSE(m->functions[0].is_entry);
  EXPECT_TRUE(m->functions[1].is_entry);
  EXPECT_EQ(m->functions[1].maxntid[0], 128);
}

TEST(Parser, Variables) {
  auto m = parse(kSmall, "k.ptx");
  ASSERT_TRUE(m);
  auto find = [&](const char* n) -> const Variable& {
    for (const auto& v : m->variables)
      if (v.name == n) return v;
    ADD_FAILURE() << n;
    return m->variables[0];
  };
  const Variable& dyn = find("dyn");
  EXPECT_TRUE(dyn.is_dynamic);
  EXPECT_TRUE(dyn.is_extern);
  EXPECT_EQ(dyn.align, 16);
  EXPECT_EQ(dyn.space, Space::Shared);
  const Variable& table = find("table");
  EXPECT_EQ(table.size, 16u);
  ASSERT_EQ(table.init.size(), 16u);
  EXPECT_EQ(table.init[8], 0xfd);  // -3
  EXPECT_EQ(table.init[12], 0x10);
  const Variable& coeff = find("coeff");
  EXPECT_EQ(coeff.space, Space::Const);
  std::uint32_t two;
  std::memcpy(&two, coeff.init.data() + 4, 4);
  EXPECT_EQ(two, 0x40000000u);
  const Variable& tile = find("tile");
  EXPECT_EQ(tile.size, 512u);
  EXPECT_EQ(tile.function, 1);
  const Variable& depot = find("__local_depot0");
  EXPECT_EQ(depot.space, Space::Local);
  const Variable& p0 = find("k_param_0");
  EXPECT_EQ(p0.space, Space::Param);
  EXPECT_EQ(p0.type, Type::U64);
  EXPECT_EQ(p0.param_index, 0);
  const Variable& ret = find("func_retval0");
  EXPECT_TRUE(ret.is_return);
}

TEST(Parser, RegistersAndInstructions) {
  auto m = parse(kSmall, "k.ptx");
  ASSERT_TRUE(m);
  const Function& k = m->functions[1];
  EXPECT_EQ(k.registers.size(), 3u + 10u + 5u);
  EXPECT_EQ(k.registers[3].name, "%r0");
  const Instruction& ld = k.body[0];
  EXPECT_EQ(ld.opcode, Opcode::Ld);
  EXPECT_EQ(ld.space, Space::Param);
  EXPECT_EQ(ld.type, Type::U64);
  EXPECT_EQ(ld.op(1).kind, OperandKind::Addr);
  EXPECT_EQ(m->variables[static_cast<std::size_t>(ld.op(1).symbol)].name, "k_param_0");
  EXPECT_EQ(ld.debug.loc.line, 12);
  const Instruction& tid = k.body[1];
  EXPECT_EQ(tid.op(1).kind, OperandKind::Sreg);
  EXPECT_EQ(tid.op(1).sreg, Sreg::Tid);
  EXPECT_EQ(tid.op(1).component, 0);
  EXPECT_EQ(k.body[2].op(1).kind, OperandKind::Symbol);
  const Instruction& setp = k.body[3];
  EXPECT_EQ(setp.cmp, Cmp::Ge);
  EXPECT_EQ(setp.type, Type::U32);
  EXPECT_EQ(setp.op(1).kind, OperandKind::None);
  EXPECT_EQ(setp.op(3).imm, 64);
  const Instruction& bra = k.body[4];
  EXPECT_TRUE(bra.guard_negated);
  EXPECT_EQ(bra.op(0).kind, OperandKind::Label);
  EXPECT_EQ(bra.op(0).imm, 9);  // $L__BB0_2
  const Instruction& shfl = k.body[5];
  EXPECT_EQ(shfl.subop, SubOp::Down);
  EXPECT_EQ(shfl.op(1).kind, OperandKind::Reg);
  EXPECT_EQ(shfl.op(5).imm, -1);
  const Instruction& call = k.body[7];
  EXPECT_EQ(call.opcode, Opcode::Call);
  EXPECT_TRUE(call.has(flag::Uni));
  const CallSite& site = k.calls[static_cast<std::size_t>(call.op(0).imm)];
  EXPECT_EQ(site.callee, 0);
  ASSERT_EQ(site.arguments.size(), 1u);
  EXPECT_EQ(m->variables[static_cast<std::size_t>(site.arguments[0])].name, "param0");
  const Instruction& ldv = k.body[9];
  EXPECT_EQ(ldv.vec, 2);
  EXPECT_EQ(ldv.op(0).kind, OperandKind::Vec);
  EXPECT_EQ(ldv.op(0).count, 2);
  EXPECT_EQ(ldv.op(1).imm, -8);
  const Instruction& atom = k.body[10];
  EXPECT_EQ(atom.subop, SubOp::Add);
  EXPECT_TRUE(atom.has(flag::ResultUnused));
  const Instruction& bad = k.body[11];
  EXPECT_EQ(bad.opcode, Opcode::Unsupported);
  EXPECT_EQ(bad.text, "frobnicate.b32");
  EXPECT_EQ(m->describe(bad), "k.ptx:56 (x.hpp:440, inlined at k.cu:30)");
}

TEST(Parser, InlinedAtChainKeepsInnerAndOuter) {
  const char* src = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k()
{
	.loc	1 56 3
	.loc	4 69 9, function_name $L__info_string4, inlined_at 1 56 3
	.loc	5 292 5, function_name $L__info_string5, inlined_at 4 69 9
	exit;
})";
  auto m = parse(src, "x.ptx");
  ASSERT_TRUE(m) << m.error().render();
  const DebugLoc& d = m->functions[0].body[0].debug;
  EXPECT_EQ(d.loc, (SourceLoc{5, 292, 5}));
  EXPECT_EQ(d.inner, (SourceLoc{4, 69, 9}));
  EXPECT_EQ(d.outer, (SourceLoc{1, 56, 3}));
  EXPECT_TRUE(d.inlined());
}

TEST(Parser, SyntaxErrorHasLineColumnAndSourceLine) {
  const char* src = ".version 8.0\n.target sm_90\n.visible .entry k()\n{\n.reg .b32 %r<4>;\n\tadd.s32 %r1, %r2 %r3;\n}\n";
  auto m = parse(src, "bad.ptx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().where.file, "bad.ptx");
  EXPECT_EQ(m.error().where.line, 6);
  EXPECT_EQ(m.error().where.column, 19);
  EXPECT_EQ(m.error().message, "expected ';' at the end of the instruction, got '%r3'");
  EXPECT_EQ(m.error().source_line, "\tadd.s32 %r1, %r2 %r3;");
}

// A statement that is well formed but names what the parser does not know stays in the
// body as an Unsupported instruction with its reason: the module, and every other kernel
// of it, still parse (a run fails only if a warp reaches one).
TEST(Parser, UnknownConstructsInABodyBecomeUnsupportedInstructions) {
  const char* src = R"(.version 8.7
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	mov.u32 %r1, %frobnicated_sreg;
	@%p1 bra $L__done;
	.frobnicate 3, 4;
	add.s32 %r2, %r1, no_such_symbol;
	@%q7 mov.u32 %r3, 1;
	st.global.v8.b32 [%r1], {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r0};
	prmt.b32 %r1, %r1, %r2, %r3, %r4, %r5, %r6, %r7, %r0;
	.reg .b1024 %wide<2>;
	mov.b32 %r1, %wide0;
$L__done:
	ret;
}
.visible .entry other()
{
	ret;
}
)";
  auto m = parse(src, "u.ptx");
  ASSERT_TRUE(m) << m.error().render();
  ASSERT_EQ(m->functions.size(), 2u);
  const Function& k = m->functions[0];
  ASSERT_EQ(k.body.size(), 9u);
  struct Expect {
    int index;
    const char* text;
    int line;
    const char* reason;
  };
  const Expect want[] = {
      {0, "mov.u32", 8, "unknown register '%frobnicated_sreg'"},
      {2, ".frobnicate", 10, "unknown directive '.frobnicate' in a function body"},
      {3, "add.s32", 11, "unknown symbol 'no_such_symbol'"},
      {4, "mov.u32", 12, "unknown register '%q7'"},
      {5, "st.global.v8.b32", 13, "the modifier '.v8' is not known"},
      {6, "prmt.b32", 14, "more than 8 operands"},  // kMaxOperands
      {7, "mov.b32", 16, "unknown register '%wide0'"},  // its declaration's type is unknown
  };
  for (const Expect& e : want) {
    const Instruction& inst = k.body[static_cast<std::size_t>(e.index)];
    EXPECT_EQ(inst.opcode, Opcode::Unsupported) << e.text;
    EXPECT_EQ(inst.text, e.text);
    EXPECT_EQ(inst.ptx_line, e.line) << e.text;
    EXPECT_EQ(inst.unsupported_reason, e.reason);
  }
  // The branch before the unknown statements still finds its label.
  EXPECT_EQ(k.body[1].opcode, Opcode::Bra);
  EXPECT_EQ(k.body[1].op(0).imm, 8);
  EXPECT_EQ(k.body[8].opcode, Opcode::Ret);
}

// An unknown statement still needs its ';': a missing one is a syntax error, reported
// where the statement runs into the block's end.
TEST(Parser, AnUnknownStatementWithoutItsSemicolonIsASyntaxError) {
  auto m = parse(".visible .entry k()\n{\n\tmov.u32 %r1, %nothing\n}\n", "s.ptx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().where.line, 4);
  EXPECT_EQ(m.error().message, "expected ';' at the end of the statement");
}

TEST(Parser, ClusterDirectives) {
  auto m = parse(".version 8.7\n.target sm_90a\n.visible .entry k() .reqnctapercluster 2, 1, 1\n{\nret;\n}\n"
                 ".visible .entry e() .explicitcluster .maxclusterrank 8\n{\nret;\n}\n",
                 "c.ptx");
  ASSERT_TRUE(m) << m.error().render();
  EXPECT_EQ(m->functions[0].reqnctapercluster, (std::array<int, 3>{2, 1, 1}));
  EXPECT_FALSE(m->functions[0].explicit_cluster);
  EXPECT_TRUE(m->functions[1].explicit_cluster);
  EXPECT_EQ(m->functions[1].reqnctapercluster, (std::array<int, 3>{0, 0, 0}));
}

TEST(Parser, MissingSemicolon) {
  const char* src = ".version 8.0\n.visible .entry k()\n{\n.reg .b32 %r<2>;\nmov.u32 %r0, 1\nret;\n}\n";
  auto m = parse(src, "bad.ptx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().where.line, 6);
  EXPECT_EQ(m.error().where.column, 1);
  EXPECT_NE(m.error().message.find("expected ';'"), std::string::npos) << m.error().message;
}

// Labels are scoped by { } blocks: inline asm repeats "WAIT: ... @p bra WAIT;" in a block
// of its own at every call site (mbarrier waits in hand-written Hopper kernels); each branch
// goes to its own block's label, and a label of the body is seen from the blocks inside it.
TEST(Parser, LabelsAreScopedByBlocks) {
  auto m = parse(".visible .entry k()\n{\n.reg .pred %p<2>;\n"
                 "{\nWAIT:\n@%p0 bra WAIT;\n@%p1 bra END;\n}\n"       // 0, 1
                 "{\nWAIT:\n@%p0 bra.uni WAIT;\n{\n@%p1 bra WAIT;\n}\n}\n"  // 2, 3
                 "bra WAIT2;\nWAIT2:\nEND:\nret;\n}\n",                     // 4, 5
                 "l.ptx");
  ASSERT_TRUE(m) << m.error().render();
  const auto& body = m->functions[0].body;
  ASSERT_EQ(body.size(), 6u);
  EXPECT_EQ(body[0].op(0).imm, 0);
  EXPECT_EQ(body[1].op(0).imm, 5);
  EXPECT_EQ(body[2].op(0).imm, 2);
  EXPECT_EQ(body[3].op(0).imm, 2);
  EXPECT_EQ(body[4].op(0).imm, 5);
  auto outside = parse(".visible .entry k()\n{\n{\nIN:\nret;\n}\nbra IN;\n}\n", "o.ptx");
  ASSERT_FALSE(outside);
  EXPECT_EQ(outside.error().message, "unknown label 'IN'");
}

TEST(Parser, UnknownLabelAndDirective) {
  auto a = parse(".visible .entry k()\n{\nbra $nowhere;\n}\n", "a.ptx");
  ASSERT_FALSE(a);
  EXPECT_EQ(a.error().message, "unknown label '$nowhere'");
  EXPECT_EQ(a.error().where.line, 3);
  auto b = parse(".bogus 1;\n", "b.ptx");
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().where.line, 1);
  auto c = parse(".visible .entry k()\n{\n", "c.ptx");
  ASSERT_FALSE(c);
}

TEST(Parser, RealNvccOutput) {
  for (const char* name : {"transpose", "reduce", "histogram", "misc", "ldmatrix", "kernels2", "transpose_sm80",
                           "reduce_sm80", "triton_add"}) {
    std::string path = std::string(WARPSCOPE_TEST_DATA) + "/ptx/" + name + ".ptx";
    auto m = parse_file(path);
    ASSERT_TRUE(m) << m.error().render();
    EXPECT_EQ(m->target.substr(0, 3), "sm_");
    for (const auto& f : m->functions)
      for (const auto& inst : f.body)
        EXPECT_NE(inst.opcode, Opcode::Unsupported) << name << ": " << m->describe(inst) << " " << inst.text;
  }
}

// Our own kernels that exercise the front end (corpus/frontend: special registers,
// cooperative groups, cp.async zero-fill, nvcc's and Triton's cache-control forms):
// every instruction decodes.
TEST(Parser, FrontendCorpusDecodesEveryInstruction) {
  for (const char* name : {"special_registers", "cp_async_zfill", "cache_hints", "triton_masked_pipelined_sum",
                           "triton_cache_hints"}) {
    std::string path = std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/frontend/" + name + ".ptx";
    auto m = parse_file(path);
    ASSERT_TRUE(m) << m.error().render();
    int instructions = 0;
    for (const auto& f : m->functions)
      for (const auto& inst : f.body) {
        ++instructions;
        EXPECT_NE(inst.opcode, Opcode::Unsupported)
            << name << ": " << m->describe(inst) << " " << inst.text << ": " << inst.unsupported_reason;
      }
    EXPECT_GT(instructions, 20) << name;
  }
}

// Cache-control forms as nvcc 13 and Triton 3.6 write them decode to their opcodes, with
// .L2::cache_hint marked (its last operand is a policy, not data).
TEST(Parser, CacheControlForms) {
  auto m = parse(".version 8.7\n.target sm_90a\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                 ".reg .pred %p<2>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<8>;\n"
                 "createpolicy.fractional.L2::evict_last.b64 %rd1, 1.0;\n"
                 "@%p1 ld.global.L1::evict_last.L2::cache_hint.b32 { %r1 }, [ %rd2 + 0 ], %rd1;\n"
                 "cp.async.cg.shared.global.L2::cache_hint [%r2], [%rd2], 16, %r3, %rd1;\n"
                 "griddepcontrol.launch_dependents;\ngriddepcontrol.wait;\n"
                 "discard.global.L2 [%rd2], 128;\napplypriority.global.L2::evict_normal [%rd2], 128;\n"
                 "prefetch.global.L2::evict_last [%rd2];\nprefetchu.L1 [%rd2];\n"
                 "ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%r1, %r2, %r3, %r4}, [%rd2];\n"
                 "ret;\n}\n",
                 "cc.ptx");
  ASSERT_TRUE(m) << m.error().render();
  const auto& b = m->functions[0].body;
  const Opcode want[] = {Opcode::Createpolicy, Opcode::Ld, Opcode::CpAsync, Opcode::GriddepcontrolLaunchDependents,
                         Opcode::GriddepcontrolWait, Opcode::Discard, Opcode::Applypriority, Opcode::Prefetch,
                         Opcode::Prefetchu, Opcode::Ld, Opcode::Ret};
  ASSERT_EQ(b.size(), std::size(want));
  for (std::size_t i = 0; i < b.size(); ++i) EXPECT_EQ(b[i].opcode, want[i]) << b[i].text << ": " << b[i].unsupported_reason;
  EXPECT_TRUE(b[1].has(flag::CacheHint));
  EXPECT_TRUE(b[2].has(flag::CacheHint));
  EXPECT_EQ(b[2].num_operands, 5);
  EXPECT_FALSE(b[9].has(flag::CacheHint));
  EXPECT_TRUE(b[9].has(flag::NonCoherent));
}

TEST(Parser, OpaqueHandlesAndVectorImmediates) {
  auto m = parse(".version 8.0\n.target sm_90\n.address_size 64\n.global .texref tex0;\n"
                 ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n.reg .f32 %f<2>;\n"
                 "ld.param.u64 %rd0, [p];\nst.global.v4.f32 [%rd0], {%f0, 0f3F800000, -1.5, %f1};\nret;\n}\n",
                 "h.ptx");
  ASSERT_TRUE(m) << m.error().render();
  const Operand& v = m->functions[0].body[1].op(1);
  EXPECT_EQ(v.kind, OperandKind::Vec);
  EXPECT_EQ(v.count, 4);
  EXPECT_EQ(v.vec_imm_mask, 0b0110);
  EXPECT_EQ(v.vec_imm[1], 0x3F800000);
  EXPECT_EQ(v.vec_imm_type[1], Type::F32);
  EXPECT_EQ(v.vec_imm_type[2], Type::F64);
}

TEST(Parser, WarpSizeConstantAndPointeeAlignment) {
  // Triton's parameters: `.ptr .global .align 1` is the pointee's alignment, not the
  // parameter's; WARP_SZ is the predefined constant warpSize compiles to.
  auto m = parse(".version 8.7\n.target sm_90a\n.address_size 64\n"
                 ".visible .entry k(.param .u32 n, .param .u64 .ptr .global .align 1 p, .param .align 8 .b8 s[16])\n{\n"
                 ".reg .b32 %r<2>;\nmov.u32 %r0, WARP_SZ;\nret;\n}\n",
                 "w.ptx");
  ASSERT_TRUE(m) << m.error().render();
  const Function& f = m->functions[0];
  EXPECT_EQ(m->variables[static_cast<std::size_t>(f.params[1])].align, 0);  // natural: 8 bytes
  EXPECT_EQ(m->variables[static_cast<std::size_t>(f.params[2])].align, 8);
  const Operand& w = f.body[0].op(1);
  EXPECT_EQ(w.kind, OperandKind::Imm);
  EXPECT_EQ(w.imm, 32);
}

TEST(Parser, MissingFile) {
  auto m = parse_file("/nonexistent/x.ptx");
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().message, "cannot read '/nonexistent/x.ptx'");
}

}  // namespace
}  // namespace warpscope::ptx
