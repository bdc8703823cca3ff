// async_schedule_test.cc: how the block runner schedules waits on mbarriers and named
// barriers: a spinning try_wait costs no steps, a phase that never completes and a named
// barrier that never fills are deadlocks naming their waiters, and the PTX forms Triton
// emits parse.
#include <gtest/gtest.h>

#include "emu/emu_test_util.h"
#include "ptx/parser.h"

namespace warpscope::emu {
namespace {

Expected<RunReport> run_ptx(const std::string& body, Dim3 block, std::vector<KernelArg> args, GlobalMemory& memory,
                            RunOptions options = {}) {
  static std::vector<std::unique_ptr<ptx::Module>> keep;
  std::string src = ".version 8.7\n.target sm_90a\n.address_size 64\n.shared .align 8 .b8 bars[64];\n"
                    ".visible .entry k(.param .u64 out)\n{\n\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<16>;\n" +
                    body + "\n\tret;\n}\n";
  auto m = ptx::parse(src, "k.ptx");
  if (!m) return m.error();
  keep.push_back(std::make_unique<ptx::Module>(std::move(*m)));
  return run(*keep.back(), "k", {{1, 1, 1}, block}, args, memory, options);
}

const Diagnostic* find(const RunReport& r, Diagnostic::Kind kind) {
  for (const auto& d : r.diagnostics)
    if (d.kind == kind) return &d;
  return nullptr;
}

// Warp 1 spins on try_wait until warp 0, which first loops 2000 times, arrives. The spin
// must not use up a 10000-step budget.
TEST(AsyncSchedule, SpinningOnTryWaitCostsNoSteps) {
  GlobalMemory memory;
  auto out = memory.allocate(8, "out");
  RunOptions options;
  options.step_budget = 10000;
  options.order = WarpOrder::Reverse;  // the waiting warp runs first
  auto r = run_ptx(R"(	mov.u32 %r1, %tid.x;
	mov.u32 %r2, bars;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 mbarrier.init.shared::cta.b64 [%r2], 1;
	bar.sync 0;
	setp.lt.u32 %p2, %r1, 32;
	@!%p2 bra $L_wait;
	mov.u32 %r3, 0;
$L_work:
	add.u32 %r3, %r3, 1;
	setp.lt.u32 %p3, %r3, 2000;
	@%p3 bra $L_work;
	@%p1 mbarrier.arrive.shared::cta.b64 _, [%r2];
	bra $L_done;
$L_wait:
	mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], 0;
	@!%p4 bra $L_wait;
	ld.param.u64 %rd1, [out];
	st.global.u32 [%rd1], 7;
$L_done:)",
                   {64, 1, 1}, {KernelArg::of(out)}, memory, options);
  ASSERT_TRUE(r) << r.error().render();
  ASSERT_FALSE(r->failed()) << r->diagnostics[0].message;
  EXPECT_EQ(testing::read_buffer<std::uint32_t>(memory, out)[0], 7u);
}

// Nobody arrives: the waiting warp is a deadlock, with the mbarrier's state and line.
TEST(AsyncSchedule, AMissingArrivalIsADeadlock) {
  GlobalMemory memory;
  auto out = memory.allocate(8, "out");
  auto r = run_ptx(R"(	mov.u32 %r1, %tid.x;
	mov.u32 %r2, bars;
	add.u32 %r2, %r2, 8;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 mbarrier.init.shared::cta.b64 [%r2], 2;
	bar.sync 0;
	@%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], 1024;
$L_wait:
	mbarrier.try_wait.parity.shared::cta.b64 %p4, [%r2], 0;
	@!%p4 bra $L_wait;)",
                   {64, 1, 1}, {KernelArg::of(out)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_TRUE(r->failed());
  const Diagnostic* d = find(*r, Diagnostic::Kind::Deadlock);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("deadlock in block (0,0,0): no warp can make progress"), std::string::npos) << d->message;
  EXPECT_NE(d->message.find("warp 0 waits for phase parity 0 of the mbarrier at shared 0x8 ('bars' + 0x8): in phase 0, "
                            "1 of 2 arrivals and 1024 transaction bytes pending, at k.ptx:"),
            std::string::npos)
      << d->message;
  EXPECT_NE(d->message.find("warp 1 waits for phase parity 0"), std::string::npos) << d->message;
}

// A named barrier for 96 threads that only 64 reach: an error, not a release.
TEST(AsyncSchedule, ANamedBarrierThatNeverFillsIsADeadlock) {
  GlobalMemory memory;
  auto out = memory.allocate(8, "out");
  auto r = run_ptx(R"(	mov.u32 %r1, %tid.x;
	setp.lt.u32 %p1, %r1, 64;
	@!%p1 bra $L_end;
	bar.sync 1, 96;
$L_end:)",
                   {128, 1, 1}, {KernelArg::of(out)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_TRUE(r->failed());
  const Diagnostic* d = find(*r, Diagnostic::Kind::Deadlock);
  ASSERT_NE(d, nullptr);
  EXPECT_NE(d->message.find("warp 0 waits at barrier 1 (64 of 96 threads arrived), at k.ptx:"), std::string::npos)
      << d->message;
  EXPECT_NE(d->message.find("2 warp(s) have exited"), std::string::npos) << d->message;
}

// Named barriers with counts, bar.arrive from producers, bar.sync from consumers: two
// rounds, in either warp order.
TEST(AsyncSchedule, NamedBarriersWithCounts) {
  for (WarpOrder order : {WarpOrder::Forward, WarpOrder::Reverse}) {
    GlobalMemory memory;
    auto out = memory.allocate(128 * 4, "out");
    RunOptions options;
    options.order = order;
    options.quantum = 2;
    auto r = run_ptx(R"(	mov.u32 %r1, %tid.x;
	mov.u32 %r2, bars;
	ld.param.u64 %rd1, [out];
	setp.lt.u32 %p1, %r1, 64;
	@!%p1 bra $L_consumer;
	st.shared.u32 [%r2], 41;
	bar.arrive 3, 128;
	bar.sync 4, 128;
	bra $L_end;
$L_consumer:
	bar.sync 3, 128;
	ld.shared.u32 %r3, [%r2];
	add.u32 %r3, %r3, 1;
	mul.wide.u32 %rd2, %r1, 4;
	add.u64 %rd3, %rd1, %rd2;
	st.global.u32 [%rd3], %r3;
	bar.arrive 4, 128;
$L_end:)",
                     {128, 1, 1}, {KernelArg::of(out)}, memory, options);
    ASSERT_TRUE(r) << r.error().render();
    ASSERT_FALSE(r->failed()) << r->diagnostics[0].message;
    auto v = testing::read_buffer<std::uint32_t>(memory, out);
    for (int t = 64; t < 128; ++t) EXPECT_EQ(v[static_cast<std::size_t>(t)], 42u) << t;
  }
}

// The forms Triton 3.6 and nvcc write: `_` sinks, tensor coordinates, elect's pair,
// fences with their own modifiers, 5-D boxes.
TEST(AsyncSchedule, HopperFormsParse) {
  const char* src = R"(.version 8.7
.target sm_90a
.address_size 64
.extern .shared .align 16 .b8 global_smem[];
.visible .entry k(.param .align 64 .b8 k_param_0[128], .param .u64 k_param_1)
{
	.reg .pred %p<8>;
	.reg .b32 %r<32>;
	.reg .b64 %rd<8>;
	mov.b64 %rd3, k_param_0;
	cvta.param.u64 %rd1, %rd3;
	mov.b32 %r12, global_smem;
	add.s32 %r9, %r12, 98304;
	mbarrier.init.shared::cta.b64 [%r9], 1;
	fence.mbarrier_init.release.cluster;
	fence.proxy.async.shared::cta;
	mbarrier.arrive.expect_tx.shared.b64 _, [%r9], 32768;
	elect.sync %r20|%p2, -1;
	@%p2 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%r12], [%rd1, {%r1, %r2}], [%r9];
	@%p2 cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster.L2::cache_hint [%r12], [%rd1, {%r1, %r2, %r3, %r4, 0}], [%r9], %r5, %rd2;
	mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r9], %r1;
	mbarrier.try_wait.parity.shared::cta.b64 %p3, [%r9], %r1, 1000000;
	cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%rd1, {%r1, %r2}], [%r12];
	cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r1, %r2}], [%r12];
	cp.async.bulk.commit_group;
	cp.async.bulk.wait_group.read 0;
	tensormap.replace.tile.global_address.shared::cta.b1024.b64 [ %rd2 + 0 ], %rd3;
	tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [ %rd2 + 0 ], 0x0, %r9;
	tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [ %rd5 + 0 ], [ %rd2 + 0 ], 0x80;
	fence.proxy.tensormap::generic.acquire.gpu [ %rd5 + 0 ], 0x80;
	prefetch.tensormap [%rd1];
	setmaxnreg.dec.sync.aligned.u32 40;
	griddepcontrol.wait;
	griddepcontrol.launch_dependents;
	mapa.shared::cluster.u32 %r6, %r12, 1;
	ld.shared::cluster.f32 %r7, [%r6];
	barrier.cluster.arrive.aligned;
	barrier.cluster.wait.aligned;
	mbarrier.inval.shared::cta.b64 [%r9];
	ret;
}
)";
  auto m = ptx::parse(src, "forms.ptx");
  ASSERT_TRUE(m) << m.error().render();
  int unsupported = 0;
  for (const ptx::Instruction& i : m->functions[0].body)
    if (i.opcode == ptx::Opcode::Unsupported) {
      ++unsupported;
      ADD_FAILURE() << "unsupported: " << i.text;
    }
  EXPECT_EQ(unsupported, 0);
  const ptx::Instruction& five = m->functions[0].body[10];
  EXPECT_EQ(five.opcode, ptx::Opcode::CpAsyncBulkTensor);
  EXPECT_EQ(five.num_operands, 7);  // dst, map, coords (4 + 1), mbar, mask, policy
}

}  // namespace
}  // namespace warpscope::emu
