// merge_assembler_test.cc: a warp's parts of ptxas's vector accesses, collected into the
// accesses that run.
#include "analysis/merge_assembler.h"

#include <gtest/gtest.h>

namespace warpscope::analysis {
namespace {

struct Ran {
  std::uint32_t pc;
  model::WarpAccess access;
};

struct Collect final : MergeAssembler::Sink {
  std::vector<Ran> ran;
  void run(const emu::AccessEvent& at, const model::WarpAccess& a) override { ran.push_back({at.pc, a}); }
};

emu::AccessEvent part(std::uint32_t pc, model::MemOp op, int width, std::uint32_t mask, std::uint64_t base,
                      std::uint64_t lane_stride) {
  emu::AccessEvent e;
  e.pc = pc;
  e.warp = 0;
  e.access.op = op;
  e.access.width = width;
  e.access.mask = mask;
  for (int l = 0; l < 32; ++l) e.access.address[static_cast<std::size_t>(l)] = base + lane_stride * l;
  return e;
}

MergeRole role(int group, int width, bool dynamic, int part, int parts, bool anchor) {
  return MergeRole{group, width, dynamic, anchor, part, parts};
}

TEST(MergeAssembler, StaticLoadRunsOnceForEveryLaneAnyPartRanFor) {
  // a = s[2t+1] for all lanes; b = s[2t] for lanes < 16 (ptxas: one LDS.64 for all lanes).
  Collect sink;
  MergeAssembler m(sink);
  m.add(part(7, model::MemOp::SharedLoad, 4, 0xffffffffu, 4, 8), role(0, 8, false, 0, 2, true));
  m.add(part(9, model::MemOp::SharedLoad, 4, 0x0000ffffu, 0, 8), role(0, 8, false, 1, 2, false));
  ASSERT_EQ(sink.ran.size(), 1u);
  EXPECT_EQ(sink.ran[0].pc, 7u);  // at the anchor
  EXPECT_EQ(sink.ran[0].access.width, 8);
  EXPECT_EQ(sink.ran[0].access.mask, 0xffffffffu);
  EXPECT_EQ(sink.ran[0].access.address[3], 24u);
  EXPECT_EQ(m.merged(), 1u);
}

TEST(MergeAssembler, StaticLoadWhoseConditionalPartNeverRanStillRunsWide) {
  Collect sink;
  MergeAssembler m(sink);
  m.add(part(7, model::MemOp::SharedLoad, 4, 0xffffffffu, 4, 8), role(0, 8, false, 0, 2, true));
  EXPECT_TRUE(sink.ran.empty());
  m.end_round(0, 0);  // the barrier
  ASSERT_EQ(sink.ran.size(), 1u);
  EXPECT_EQ(sink.ran[0].access.width, 8);
}

TEST(MergeAssembler, StoresWithDifferentLanesRunAsWritten) {
  Collect sink;
  MergeAssembler m(sink);
  m.add(part(3, model::MemOp::SharedStore, 4, 0xffffffffu, 0, 8), role(1, 8, false, 0, 2, false));
  m.add(part(4, model::MemOp::SharedStore, 4, 0x0000ffffu, 4, 8), role(1, 8, false, 1, 2, true));
  ASSERT_EQ(sink.ran.size(), 2u);
  EXPECT_EQ(sink.ran[0].access.width, 4);
  EXPECT_EQ(sink.ran[1].access.mask, 0x0000ffffu);
  EXPECT_EQ(m.merged(), 0u);
}

TEST(MergeAssembler, InterleavedGroupsDoNotFlushEachOther) {
  // As[k..k+3] (group 0) and Bs[k..k+3] (group 1) alternate, as in a GEMM's inner loop.
  Collect sink;
  MergeAssembler m(sink);
  for (int k = 0; k < 4; ++k) {
    m.add(part(10 + 2 * k, model::MemOp::SharedLoad, 4, ~0u, 4u * k, 0), role(0, 16, false, k, 4, k == 0));
    m.add(part(11 + 2 * k, model::MemOp::SharedLoad, 4, ~0u, 4096 + 4u * k, 64), role(1, 16, false, k, 4, k == 0));
  }
  ASSERT_EQ(sink.ran.size(), 2u);
  EXPECT_EQ(sink.ran[0].access.width, 16);
  EXPECT_EQ(sink.ran[1].access.width, 16);
  EXPECT_EQ(sink.ran[1].access.address[1], 4096u + 64u);
}

TEST(MergeAssembler, DynamicBlocksFillAcrossIterationsOrRunAsParts) {
  // Iteration 1 gives bytes 0..7 of each lane's 16-byte block, iteration 2 bytes 8..15.
  Collect sink;
  MergeAssembler m(sink);
  const MergeRole r = role(2, 16, true, 0, 0, false);
  m.add(part(5, model::MemOp::SharedLoad, 4, ~0u, 0, 64), r);
  m.add(part(6, model::MemOp::SharedLoad, 4, ~0u, 4, 64), r);
  EXPECT_TRUE(sink.ran.empty());
  m.add(part(5, model::MemOp::SharedLoad, 4, ~0u, 8, 64), r);
  m.add(part(6, model::MemOp::SharedLoad, 4, ~0u, 12, 64), r);
  ASSERT_EQ(sink.ran.size(), 1u);
  EXPECT_EQ(sink.ran[0].access.width, 16);
  // A block only half filled when the block ends: its parts run as written.
  m.add(part(5, model::MemOp::SharedLoad, 4, ~0u, 16, 64), r);
  m.end_block(0);
  ASSERT_EQ(sink.ran.size(), 2u);
  EXPECT_EQ(sink.ran[1].access.width, 4);
}

}  // namespace
}  // namespace warpscope::analysis
