// events_test.cc: the addresses, masks and regions the emulator publishes.
#include <gtest/gtest.h>

#include "emu/emu_test_util.h"

namespace warpscope::emu {
namespace {

using testing::test_module;

TEST(Events, StridedSharedStoreAddresses) {
  GlobalMemory memory;
  auto out = memory.allocate(32 * 4, "out");
  auto in = memory.allocate(32 * 4, "in");
  RunOptions one;
  one.workers = 1;
  auto report = run(test_module("misc"), "strided", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(out), KernelArg::of(in)},
                    memory, one, testing::recorder_factory());
  ASSERT_TRUE(report) << report.error().render();
  auto rec = testing::merged(*report);
  ASSERT_EQ(rec.accesses.size(), 4u);
  const AccessEvent& load = rec.accesses[0];
  EXPECT_EQ(load.access.op, model::MemOp::GlobalLoad);
  EXPECT_EQ(load.access.width, 4);
  EXPECT_EQ(load.access.mask, 0xffffffffu);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(load.access.address[static_cast<std::size_t>(l)], in + 4u * static_cast<unsigned>(l));
  EXPECT_EQ(report->regions[static_cast<std::size_t>(load.region)].name, "in");
  const AccessEvent& store = rec.accesses[1];
  EXPECT_EQ(store.access.op, model::MemOp::SharedStore);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(store.access.address[static_cast<std::size_t>(l)], 8u * static_cast<unsigned>(l));
  EXPECT_EQ(report->regions[static_cast<std::size_t>(store.region)].name, "_ZZ7stridedE1s");
  EXPECT_EQ(store.instruction->debug.loc.line, 28);  // s[threadIdx.x * 2] = in[threadIdx.x];
  EXPECT_EQ(rec.accesses[2].access.op, model::MemOp::SharedLoad);
  EXPECT_EQ(rec.accesses[3].access.op, model::MemOp::GlobalStore);
  ASSERT_EQ(rec.barriers.size(), 1u);
  EXPECT_EQ(rec.barriers[0].mask, 0xffffffffu);
}

TEST(Events, DivergentMasksInReduction) {
  GlobalMemory memory;
  auto in = memory.allocate(256 * 4, "in");
  auto out = memory.allocate(4, "out");
  RunOptions one;
  one.workers = 1;
  auto report = run(test_module("reduce"), "reduce_shared", {{1, 1, 1}, {256, 1, 1}},
                    {KernelArg::of(in), KernelArg::of(out), KernelArg::of(256)}, memory, one, testing::recorder_factory());
  ASSERT_TRUE(report) << report.error().render();
  auto rec = testing::merged(*report);
  // The loop's shared stores: stride 128 (4 warps), 64 (2), 32 (1), then 16, 8, 4, 2, 1 lanes of warp 0.
  std::vector<std::uint32_t> masks;
  for (const auto& e : rec.accesses)
    if (e.access.op == model::MemOp::SharedStore && e.instruction->debug.loc.line == 13) masks.push_back(e.access.mask);
  std::vector<std::uint32_t> expect = {~0u, ~0u, ~0u, ~0u, ~0u, ~0u, ~0u, 0xffffu, 0xffu, 0xfu, 0x3u, 0x1u};
  EXPECT_EQ(masks, expect);
  // `if (t < stride)` splits warp 0 for strides 16, 8, 4, 2, 1; then `if (t == 0)`.
  std::vector<std::uint32_t> split;
  for (const auto& d : rec.divergences) split.push_back(d.not_taken);
  EXPECT_EQ(split, (std::vector<std::uint32_t>{0xffffu, 0xffu, 0xfu, 0x3u, 0x1u, 0x1u}));
  // Every one of 8 warps reaches every one of the 9 barriers (1 + 8 loop iterations).
  EXPECT_EQ(rec.barriers.size(), 8u * 9);
}

TEST(Events, HistogramAtomics) {
  GlobalMemory memory;
  auto in = memory.allocate(1024, "in");
  auto bins = memory.allocate(256 * 4, "bins");
  RunOptions one;
  one.workers = 1;
  auto report = run(test_module("histogram"), "histogram", {{1, 1, 1}, {256, 1, 1}},
                    {KernelArg::of(in), KernelArg::of(bins), KernelArg::of(1024)}, memory, one, testing::recorder_factory());
  ASSERT_TRUE(report) << report.error().render();
  auto rec = testing::merged(*report);
  int shared_atomics = 0, global_atomics = 0;
  for (const auto& e : rec.accesses) {
    if (e.access.op == model::MemOp::SharedAtomicAggregated) {
      ++shared_atomics;
      for (int l = 0; l < 32; ++l) EXPECT_EQ(e.access.address[static_cast<std::size_t>(l)], 0u);  // all zero bytes: bin 0
    }
    if (e.access.op == model::MemOp::GlobalReduction) ++global_atomics;
  }
  EXPECT_EQ(shared_atomics, 8 * 4);  // 8 warps, 4 elements each
  EXPECT_EQ(global_atomics, 8);
}

TEST(Events, AsyncCopyIsAGlobalReadAndASharedWrite) {
  GlobalMemory memory;
  auto out = memory.allocate(64 * 4, "out");
  auto in = memory.allocate(4096, "in");
  RunOptions one;
  one.workers = 1;
  auto report = run(test_module("misc"), "async_copy", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(out), KernelArg::of(in)},
                    memory, one, testing::recorder_factory());
  ASSERT_TRUE(report) << report.error().render();
  auto rec = testing::merged(*report);
  ASSERT_GE(rec.accesses.size(), 2u);
  EXPECT_EQ(rec.accesses[0].access.op, model::MemOp::GlobalLoad);
  EXPECT_EQ(rec.accesses[0].access.width, 16);
  EXPECT_TRUE(rec.accesses[0].async_copy);
  EXPECT_EQ(rec.accesses[1].access.op, model::MemOp::SharedStore);
  EXPECT_EQ(rec.accesses[1].access.address[3], 48u);
}

TEST(Events, LdMatrixRowAddresses) {
  GlobalMemory memory;
  auto out = memory.allocate(32 * 16, "out");
  auto in = memory.allocate(512, "in");
  RunOptions one;
  one.workers = 1;
  auto report = run(test_module("ldmatrix"), "ldsm", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(out), KernelArg::of(in)},
                    memory, one, testing::recorder_factory());
  ASSERT_TRUE(report) << report.error().render();
  auto rec = testing::merged(*report);
  int found = 0;
  for (const auto& e : rec.accesses) {
    if (e.access.op != model::MemOp::LdMatrix) continue;
    ++found;
    EXPECT_EQ(e.access.width, 4);
    for (int l = 0; l < 32; ++l) EXPECT_EQ(e.access.address[static_cast<std::size_t>(l)], 16u * static_cast<unsigned>(l));
  }
  EXPECT_EQ(found, 1);
}

}  // namespace
}  // namespace warpscope::emu

namespace warpscope::emu {
namespace {

// The join block comes first in the layout: lanes from both sides must still execute
// the store together (one event, full mask), as at the hardware's convergence barrier.
TEST(Events, LanesMeetAtThePostDominatorWhateverTheLayout) {
  const char* src = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .pred %p<2>;
	.reg .b32 %r<8>;
	.shared .align 4 .b8 s[128];
	mov.u32 %r0, %tid.x;
	mov.u32 %r1, s;
	shl.b32 %r2, %r0, 2;
	add.s32 %r3, %r1, %r2;
	setp.lt.u32 %p1, %r0, 16;
	@%p1 bra $L_A;
	bra.uni $L_B;
$L_join:
	st.shared.u32 [%r3], %r4;
	ret;
$L_B:
	mov.u32 %r4, 2;
	bra.uni $L_join;
$L_A:
	mov.u32 %r4, 1;
	bra.uni $L_join;
}
)";
  auto m = ptx::parse(src, "j.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  RunOptions one;
  one.workers = 1;
  auto report = run(*m, "k", {{1, 1, 1}, {32, 1, 1}}, {}, memory, one, testing::recorder_factory());
  ASSERT_TRUE(report) << report.error().render();
  auto rec = testing::merged(*report);
  ASSERT_EQ(rec.accesses.size(), 1u);
  EXPECT_EQ(rec.accesses[0].access.mask, 0xffffffffu);
}

}  // namespace
}  // namespace warpscope::emu
