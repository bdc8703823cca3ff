// global_advice_test.cc: each global change re-priced on hand-built warp accesses, against
// sector counts worked out by hand (32-byte sectors; a request per warp access).
#include <gtest/gtest.h>

#include "model/test_util.h"

#include "analysis/global_advice.h"

namespace warpscope::analysis {
namespace {

using model::testing::sm90;

// Lane L at base + L * stride (model/test_util.h builds it).
model::WarpAccess strided(model::MemOp op, int width, std::uint64_t base, std::uint64_t stride) {
  return model::testing::make_access(op, width, [&](int lane) { return base + static_cast<std::uint64_t>(lane) * stride; });
}

GlobalInstruction instruction(std::uint32_t pc, std::vector<GlobalExecution> executions) {
  return GlobalInstruction{pc, nullptr, std::move(executions)};
}

const std::vector<emu::Region> kBuffers{{"p", model::Space::Global, 1u << 20, 12 * 1024}};

TEST(GlobalAdvice, AosToSoaPricesTheFieldArray) {
  // struct {float x, y, z;} p[1024]; warps 0 and 1 read p[i].y: lanes 12 B apart, 384 bytes
  // (12 sectors, 4 ideal) per warp. SoA: y[i] at 4096 + 4 i, 4 sectors per warp.
  const std::uint64_t base = 1u << 20;
  const auto inst = instruction(3, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, base + 4, 12)},
                                    {0, 1, 0, 0, strided(model::MemOp::GlobalLoad, 4, base + 4 + 384, 12)}});
  const GlobalPrice before = price_instruction(sm90(), inst);
  EXPECT_EQ(before.sectors, 2u * 12);  // bytes 4..379, then 388..763
  EXPECT_EQ(before.ideal, 8u);
  const auto soa = soa_change(sm90(), inst, kBuffers);
  ASSERT_TRUE(soa);
  EXPECT_EQ(soa->change, "AoS to SoA");
  EXPECT_EQ(soa->after.sectors, 8u);
  EXPECT_EQ(soa->after.requests, 2u);
  EXPECT_EQ(soa->saved(), 16u);
  EXPECT_NE(soa->detail.find("12-byte structs accessed at field offset +4"), std::string::npos) << soa->detail;
  // A contiguous access is no struct; a column 2 KiB apart is not one either.
  EXPECT_FALSE(soa_change(sm90(), instruction(1, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, base, 4)}}), kBuffers));
  EXPECT_FALSE(soa_change(sm90(), instruction(1, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, base, 2048)}}), kBuffers));
}

TEST(GlobalAdvice, AligningTheBaseSavesTheStraddledSector) {
  // 32 floats from byte 4: bytes 4..131 touch 5 sectors (ideal 4); from byte 0, 4.
  const auto inst = instruction(1, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, 4, 4)},
                                    {0, 1, 0, 0, strided(model::MemOp::GlobalLoad, 4, 128, 4)}});  // aligned
  const auto c = align_change(sm90(), inst);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->before.sectors, 5u + 4u);
  EXPECT_EQ(c->after.sectors, 4u + 4u);
  EXPECT_EQ(c->saved(), 1u);
  EXPECT_NE(c->detail.find("1 of 2 warp accesses"), std::string::npos) << c->detail;
  EXPECT_NE(c->detail.find("by 4 B"), std::string::npos) << c->detail;
  EXPECT_FALSE(align_change(sm90(), instruction(1, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, 128, 4)}})));
}

TEST(GlobalAdvice, StagingTheNaiveTransposeWriteThroughATile) {
  // Block 32x8 of a 512 x 512 float transpose: warp w, iteration j writes out[x * 512 + w + 8 j]
  // for lanes x = 0..31: 32 sectors per warp, 32 warp stores: 1024 sectors per block. The
  // block's union is 32 rows of 32 floats (128 B each, aligned): 32 warp stores of 4 sectors.
  std::vector<GlobalExecution> xs;
  for (std::uint64_t block = 0; block < 2; ++block)
    for (int w = 0; w < 8; ++w)
      for (std::uint32_t j = 0; j < 4; ++j)
        xs.push_back({block, w, j, 0,
                      strided(model::MemOp::GlobalStore, 4, block * 128 + (w + 8 * j) * 4, 2048)});
  const auto inst = instruction(7, xs);
  const auto c = staging_change(sm90(), inst);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->before.sectors, 2u * 1024);
  EXPECT_EQ(c->before.requests, 2u * 32);
  EXPECT_EQ(c->after.sectors, 2u * 128);
  EXPECT_EQ(c->after.requests, 2u * 32);
  EXPECT_EQ(c->saved(), 2u * 896);
  // The tile's column side: 32 rows 128 B apart hit one bank (32 wavefronts); 132 B apart, 1.
  EXPECT_NE(c->detail.find("__shared__ float tile[32][32]"), std::string::npos) << c->detail;
  EXPECT_NE(c->detail.find("costs 32 wavefronts per warp (ideal 1) as declared, 1 padded to tile[32][33]"),
            std::string::npos)
      << c->detail;
  // No other change applies to a column write.
  EXPECT_FALSE(soa_change(sm90(), inst, {{"out", model::Space::Global, 0, 1 << 20}}));
  EXPECT_FALSE(align_change(sm90(), inst));
  EXPECT_FALSE(widening_change(sm90(), inst, {inst}));
}

TEST(GlobalAdvice, StagingPacksShortRowsIntoFullWarps) {
  // 16 warp loads, the e-th reads column e of 32 rows 1 KiB apart: 32 sectors each, 512 in
  // all. The block's union is 32 rows of 16 floats (64 B, 2 sectors): a warp per row would take
  // 32 requests of 2 sectors; 32 elements in address order (two rows per warp) take 16 of 4.
  std::vector<GlobalExecution> xs;
  for (std::uint32_t e = 0; e < 16; ++e)
    xs.push_back({0, static_cast<int>(e), 0, 0, strided(model::MemOp::GlobalLoad, 4, e * 4, 1024)});
  const auto c = staging_change(sm90(), instruction(2, xs));
  ASSERT_TRUE(c);
  EXPECT_EQ(c->before.sectors, 512u);
  EXPECT_EQ(c->before.requests, 16u);
  EXPECT_EQ(c->after.sectors, 64u);
  EXPECT_EQ(c->after.requests, 16u);
  EXPECT_NE(c->detail.find("tile[32][16] and let each warp move the next 32 elements in address order"),
            std::string::npos)
      << c->detail;
}

TEST(GlobalAdvice, WideningAdjacentInstructionsIntoOneEightByteAccess) {
  // a[2 i] (pc 1) and a[2 i + 1] (pc 2): each 256 bytes of span, 8 sectors (ideal 4). One
  // 8-byte access per lane: 8 sectors, one request instead of two.
  const auto even = instruction(1, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, 0, 8)}});
  const auto odd = instruction(2, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, 4, 8)}});
  const std::vector<GlobalInstruction> all{even, odd};
  const auto c = widening_change(sm90(), even, all);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->change, "widen to 8-byte accesses");
  EXPECT_EQ(c->before.sectors, 16u);
  EXPECT_EQ(c->before.requests, 2u);
  EXPECT_EQ(c->after.sectors, 8u);
  EXPECT_EQ(c->after.requests, 1u);
  EXPECT_EQ(c->saved(), 8u);
  EXPECT_NE(c->detail.find("instruction 1 and instruction 2 are adjacent"), std::string::npos) << c->detail;
  EXPECT_EQ(c->detail.find("pc "), std::string::npos) << c->detail;
  EXPECT_FALSE(widening_change(sm90(), odd, all)) << "a[2i+1] is not 8-byte aligned";
}

TEST(GlobalAdvice, WideningLoopIterationsAndFourElements) {
  // One instruction, four iterations per warp: lane l at 16 l + 4 k in iteration k. Each is 16
  // sectors (512 bytes of span): 64 sectors, 4 requests. One 16-byte access per lane: 16, 1.
  std::vector<GlobalExecution> xs;
  for (std::uint32_t k = 0; k < 4; ++k) xs.push_back({0, 0, k, 0, strided(model::MemOp::GlobalStore, 4, 4 * k, 16)});
  const auto inst = instruction(5, xs);
  const auto c = widening_change(sm90(), inst, {inst});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->change, "widen to 16-byte accesses");
  EXPECT_EQ(c->before.sectors, 64u);
  EXPECT_EQ(c->after.sectors, 16u);
  EXPECT_EQ(c->after.requests, 1u);
  EXPECT_NE(c->detail.find("unroll by 4"), std::string::npos) << c->detail;
  // 12-byte structs: x and y are adjacent but x is 8-byte aligned only in even lanes.
  const auto x = instruction(1, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, 0, 12)}});
  const auto y = instruction(2, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, 4, 12)}});
  EXPECT_FALSE(widening_change(sm90(), x, {x, y}));
}

TEST(GlobalAdvice, AdviceListsUncoalescedInstructionsScaled) {
  const std::uint64_t base = 1u << 20;
  const auto aos = instruction(3, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, base, 12)}});
  const auto coalesced = instruction(4, {{0, 0, 0, 0, strided(model::MemOp::GlobalLoad, 4, base, 4)}});
  ptx::Module module;
  const auto advice = advise_global(sm90(), module, {aos, coalesced}, kBuffers, 2.0);
  ASSERT_EQ(advice.size(), 1u);  // the coalesced one has nothing to win
  EXPECT_EQ(advice[0].pc, 3u);
  EXPECT_EQ(advice[0].before.sectors, 24u);  // 12 per warp, sampled half: x2
  EXPECT_EQ(advice[0].before.ideal, 8u);
  ASSERT_FALSE(advice[0].suggestions.empty());
  EXPECT_EQ(advice[0].suggestions[0].change, "AoS to SoA");
  EXPECT_EQ(advice[0].suggestions[0].after.sectors, 8u);
  EXPECT_EQ(advice[0].suggestions[0].saved(), 16u);
}

TEST(GlobalAccessRecorder, NumbersEachWarpsExecutionsAndTakesWholeBlocksUpToItsBudget) {
  GlobalAccessRecorder rec(2);
  emu::AccessEvent e;
  e.access = strided(model::MemOp::GlobalLoad, 4, 0, 4);
  e.region = 0;
  rec.on_block_begin({});
  for (int i = 0; i < 3; ++i) {  // warp 0 runs pc 4 twice, warp 1 once: all kept (the block began under budget)
    e.pc = 4;
    e.warp = i == 2 ? 1 : 0;
    rec.on_access(e);
  }
  e.access.op = model::MemOp::SharedLoad;  // not global: ignored
  rec.on_access(e);
  rec.on_block_begin({});  // 3 >= 2: this block is skipped
  e.access.op = model::MemOp::GlobalStore;
  rec.on_access(e);
  const auto insts = rec.instructions();
  ASSERT_EQ(insts.size(), 1u);
  ASSERT_EQ(insts[0].executions.size(), 3u);
  EXPECT_EQ(insts[0].executions[0].seq, 0u);
  EXPECT_EQ(insts[0].executions[1].seq, 1u);
  EXPECT_EQ(insts[0].executions[2].seq, 0u);  // warp 1's first
  EXPECT_EQ(rec.blocks_recorded(), 1u);
  GlobalAccessRecorder other;
  other.on_block_begin({});
  other.on_access(e);
  rec.merge(std::move(other));
  EXPECT_EQ(rec.blocks_recorded(), 2u);
  EXPECT_EQ(rec.instructions().size(), 1u);  // the store was recorded by `other` at pc 4 too
  EXPECT_EQ(rec.instructions()[0].executions.size(), 4u);
}

TEST(GlobalAccessRecorder, WorkersShareOneBudget) {
  const auto count = GlobalAccessRecorder::shared_count();
  GlobalAccessRecorder a(2, count), b(2, count);
  emu::AccessEvent e;
  e.access = strided(model::MemOp::GlobalLoad, 4, 0, 4);
  e.region = 0;
  e.pc = 4;
  a.on_block_begin({});
  for (int i = 0; i < 3; ++i) a.on_access(e);
  a.on_block_begin({});  // adds a's 3 to the shared count: over budget
  b.on_block_begin({});  // b has recorded nothing, but the workers' budget is spent
  b.on_access(e);
  EXPECT_EQ(count->load(), 3u);
  EXPECT_EQ(a.blocks_recorded(), 1u);
  EXPECT_EQ(b.blocks_recorded(), 0u);
  EXPECT_TRUE(b.instructions().empty());
}

}  // namespace
}  // namespace warpscope::analysis
