// diagnostics_test.cc: bad kernels are diagnosed, not crashed on.
#include <gtest/gtest.h>

#include "emu/args.h"
#include "ptx/parser.h"

#include "emu/emu_test_util.h"
#include "emu/program.h"

namespace warpscope::emu {
namespace {

using testing::test_module;

const Diagnostic* find(const RunReport& r, Diagnostic::Kind kind) {
  for (const auto& d : r.diagnostics)
    if (d.kind == kind) return &d;
  return nullptr;
}

TEST(Diagnostics, EarlyReturnBeforeBarrier) {
  GlobalMemory memory;
  auto data = memory.allocate(128 * 4, "data");
  auto report = run(test_module("misc"), "early_return", {{1, 1, 1}, {128, 1, 1}}, {KernelArg::of(data), KernelArg::of(100)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  const Diagnostic* d = find(*report, Diagnostic::Kind::BarrierDivergence);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->severity, Diagnostic::Severity::Warning);
  EXPECT_NE(d->message.find("100 of 128 threads of block (0,0,0) arrived; 28 had exited (thread (100,0,0)"),
            std::string::npos) << d->message;
  // The .cu position (file:line:col, the path as .file has it), not the PTX line (PTX line 217).
  EXPECT_NE(d->message.find("misc.cu:20:3: 100 of 128"), std::string::npos) << d->message;
  EXPECT_EQ(d->message.find("misc.ptx"), std::string::npos) << d->message;
  ASSERT_NE(d->instruction, nullptr);
  EXPECT_EQ(d->instruction->ptx_line, 217);
  // Threads 0..27 read s[127 - t], which exited threads never wrote.
  const Diagnostic* u = find(*report, Diagnostic::Kind::UninitializedShared);
  ASSERT_NE(u, nullptr);
  EXPECT_NE(u->message.find("misc.cu:21"), std::string::npos) << u->message;
}

// assert() in the kernel: a failed one names its expression, file and line and the function,
// not "unsupported call to __assertfail"; a launch that satisfies it runs.
TEST(Diagnostics, FailedAssertionNamesItsExpression) {
  GlobalMemory memory;
  auto x = memory.allocate(256 * 4, "x");
  auto bad = run(test_module("assert"), "checked_scale", {{2, 1, 1}, {128, 1, 1}}, {KernelArg::of(x), KernelArg::of(256)}, memory);
  ASSERT_TRUE(bad) << bad.error().render();
  const Diagnostic* d = find(*bad, Diagnostic::Kind::Trap);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("assertion failed: `blockDim.x == 64` (assert.cu:4) in void checked_scale(float *, int) in block (0,0,0) thread (0,0,0)"),
            std::string::npos)
      << d->message;
  auto good = run(test_module("assert"), "checked_scale", {{4, 1, 1}, {64, 1, 1}}, {KernelArg::of(x), KernelArg::of(256)}, memory);
  ASSERT_TRUE(good) << good.error().render();
  EXPECT_FALSE(good->failed());
}

// Every block fails in its first warp, after a barrier its second warp reaches by spinning:
// 1000000 times in block 0, 10 in the others. Block 0 fails last, yet the error reported is its own, whichever worker fails
// first (blocks after a failed one stop early, those before it run on).
TEST(Diagnostics, TheLowestFailingBlockIsReportedWhateverTheTiming) {
  auto m = ptx::parse(R"(
.version 8.0
.target sm_90
.address_size 64
.visible .entry late_fault(.param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r5, %tid.x;
  setp.eq.u32 %p1, %r1, 0;
  selp.b32 %r3, 1000000, 10, %p1;
  setp.lt.u32 %p2, %r5, 32;
  @%p2 bra $WAIT;
  mov.u32 %r4, 0;
$L:
  add.s32 %r4, %r4, 1;
  setp.lt.s32 %p1, %r4, %r3;
  @%p1 bra $L;
$WAIT:
  bar.sync 0;
  @!%p2 bra $DONE;
  mul.wide.u32 %rd2, %r1, 4096;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3+1048576], %r1;
$DONE:
  ret;
}
)", "late.ptx");
  ASSERT_TRUE(m.ok()) << m.error().message;
  GlobalMemory memory;
  auto out = memory.allocate(4096, "out");
  RunOptions options;
  options.workers = 4;
  for (int round = 0; round < 3; ++round) {
    auto bad = run(*m, "late_fault", {{64, 1, 1}, {64, 1, 1}}, {KernelArg::of(out)}, memory, options);
    ASSERT_TRUE(bad) << bad.error().render();
    ASSERT_TRUE(bad->failed());
    ASSERT_FALSE(bad->diagnostics.empty());
    EXPECT_NE(bad->diagnostics[0].message.find("block (0,0,0)"), std::string::npos) << round << ": " << bad->diagnostics[0].message;
  }
}

TEST(Diagnostics, OutOfBoundsGlobalStore) {
  GlobalMemory memory;
  auto data = memory.allocate(32 * 4, "data");
  auto report = run(test_module("misc"), "oob", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(data)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->failed());
  const Diagnostic* d = find(*report, Diagnostic::Kind::OutOfBounds);
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->thread, (Dim3{16, 0, 0}));
  EXPECT_NE(d->message.find("out-of-bounds global store of 4 bytes"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("4 bytes past the end of 'data', 128 bytes"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("bytes at data+0x80 ("), std::string::npos) << d->message;  // buffer + offset
  EXPECT_NE(d->message.find("thread (16,0,0)"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("misc.cu:24"), std::string::npos) << d->message;
}

TEST(Diagnostics, StepBudgetStopsEndlessLoop) {
  GlobalMemory memory;
  auto flag = memory.allocate(4, "flag");
  RunOptions options;
  options.step_budget = 10000;
  auto report = run(test_module("misc"), "spin", {{2, 1, 1}, {32, 1, 1}}, {KernelArg::of(flag)}, memory, options);
  ASSERT_TRUE(report) << report.error().render();
  const Diagnostic* d = find(*report, Diagnostic::Kind::StepBudget);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("exceeded the step budget of 10000"), std::string::npos) << d->message;
}

TEST(Diagnostics, UnsupportedInstructionWhenReached) {
  const char* src = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u32 k_param_0)
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	ld.param.u32 %r1, [k_param_0];
	setp.eq.s32 %p1, %r1, 0;
	@%p1 bra $L__done;
	frobnicate.b32 %r2, %r1;
$L__done:
	ret;
}
)";
  auto m = ptx::parse(src, "k.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  auto fine = run(*m, "k", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(0)}, memory);
  ASSERT_TRUE(fine);
  EXPECT_TRUE(fine->diagnostics.empty());
  auto bad = run(*m, "k", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(1)}, memory);
  ASSERT_TRUE(bad);
  ASSERT_EQ(bad->diagnostics.size(), 1u);
  EXPECT_EQ(bad->diagnostics[0].message,
            "unsupported instruction 'frobnicate.b32' at k.ptx:11: warpscope does not emulate it yet (docs/ptx.md)");
}

TEST(Diagnostics, ArgumentErrorsListParameters) {
  GlobalMemory memory;
  auto r = run(test_module("transpose"), "transpose_tiled", {{1, 1, 1}, {32, 8, 1}}, {KernelArg::of(1)}, memory);
  ASSERT_FALSE(r);
  // The parameters by their names in tests/data/ptx/transpose.cu, which the PTX's .file names.
  EXPECT_EQ(r.error().message, "kernel 'transpose_tiled' takes 3 parameters (u64 out, u64 in, u32 n); 1 given");
  auto k = run(test_module("transpose"), "nope", {{1, 1, 1}, {32, 1, 1}}, {}, memory);
  ASSERT_FALSE(k);
  EXPECT_EQ(k.error().message, "no kernel named 'nope'; kernels: transpose_naive, transpose_tiled");
  auto big = run(test_module("transpose"), "transpose_tiled", {{1, 1, 1}, {2048, 1, 1}}, {}, memory);
  ASSERT_FALSE(big);
}

TEST(Diagnostics, MangledKernelNames) {
  const char* src = ".version 8.0\n.target sm_90\n.address_size 64\n"
                    ".visible .entry _Z3fooPf(.param .u64 p)\n{\nret;\n}\n"
                    ".visible .entry _Z3fooPi(.param .u64 p)\n{\nret;\n}\n"
                    ".visible .entry _Z3barv()\n{\nret;\n}\n";
  auto m = ptx::parse(src, "m.ptx");
  ASSERT_TRUE(m) << m.error().render();
  EXPECT_EQ(*find_kernel(*m, "bar"), 2);
  EXPECT_EQ(*find_kernel(*m, "_Z3fooPi"), 1);
  auto amb = find_kernel(*m, "foo");
  ASSERT_FALSE(amb);
  EXPECT_EQ(amb.error().message, "kernel name 'foo' is ambiguous: foo(float*), foo(int*)");
  EXPECT_EQ(*find_kernel(*m, "foo(int *)"), 1);
  auto none = find_kernel(*m, "baz");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error().message, "no kernel named 'baz'; kernels: foo(float*), foo(int*), bar()");
  auto unnamed = find_kernel(*m, "");
  ASSERT_FALSE(unnamed);
  EXPECT_EQ(unnamed.error().message, "the file has 3 kernels: name one with --kernel: foo(float*), foo(int*), bar()");
}

// An extern __shared__ array with no --dyn-smem: the message says what to pass.
TEST(Diagnostics, ExternSharedWithoutDynamicBytesSaysToPassDynSmem) {
  auto text = read_file(std::string(WARPSCOPE_SOURCE_DIR) + "/examples/reduce_sequential.ptx");
  ASSERT_TRUE(text);
  auto module = ptx::parse(std::string(text->begin(), text->end()), "reduce_sequential.ptx");
  ASSERT_TRUE(module) << module.error().render();
  GlobalMemory memory;
  auto args = make_arguments(*module, 0, {"buf:4", "buf:1024"}, memory);
  ASSERT_TRUE(args) << args.error().message;
  auto report = run(*module, "reduce_sequential", {{1, 1, 1}, {256, 1, 1}, 0}, args->values, memory);
  ASSERT_TRUE(report) << report.error().render();
  const Diagnostic* d = find(*report, Diagnostic::Kind::OutOfBounds);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("and none of it dynamic: the kernel's extern __shared__ array gets the bytes the launch "
                            "gives, so pass --dyn-smem BYTES"),
            std::string::npos)
      << d->message;
  EXPECT_NE(d->message.find("at reduce_sequential.cu:12:3"), std::string::npos) << d->message;
  // With the bytes, no hint (and no error).
  GlobalMemory again;
  auto args2 = make_arguments(*module, 0, {"buf:4", "buf:1024"}, again);
  auto fine = run(*module, "reduce_sequential", {{1, 1, 1}, {256, 1, 1}, 1024}, args2->values, again);
  ASSERT_TRUE(fine);
  EXPECT_FALSE(fine->failed());
}

// A shared read past the end of the block's shared memory but inside its allocation (rounded up
// to 128 bytes) does not fault on the H200 (corpus/frontend/shared_overread.cu, measured): a
// warning, the figures reported. Past the allocation the GPU faults: an error.
TEST(Diagnostics, SharedReadsPastTheEndWarnInsideTheAllocationAndFailPastIt) {
  auto m = ptx::parse_file(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/frontend/shared_overread.ptx");
  ASSERT_TRUE(m) << m.error().render();
  for (const char* kernel : {"overread_tail", "overread_far"}) {
    GlobalMemory memory;
    auto out = memory.allocate(16, "out");
    auto in = memory.allocate(4096, "in");
    auto r = run(*m, kernel, {{4, 1, 1}, {256, 1, 1}}, {KernelArg::of(out), KernelArg::of(in)}, memory);
    ASSERT_TRUE(r) << r.error().render();
    std::string all;
    for (const auto& d : r->diagnostics) all += d.message + "\n";
    if (std::string(kernel) == "overread_tail") {
      EXPECT_FALSE(r->failed()) << all;
      EXPECT_NE(all.find("past the end of the block's 32 bytes of shared memory, inside its 128-byte allocation"),
                std::string::npos) << all;
      EXPECT_EQ(all.find("never written"), std::string::npos) << all;
    } else {
      EXPECT_TRUE(r->failed()) << all;
      EXPECT_NE(all.find("out-of-bounds shared load"), std::string::npos) << all;
      EXPECT_NE(all.find("the block has 32 bytes of shared memory, its allocation 128 (rounded up to 128 bytes)"),
                std::string::npos) << all;
    }
  }
}

}  // namespace
}  // namespace warpscope::emu
