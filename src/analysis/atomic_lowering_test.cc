// atomic_lowering_test.cc: one atomic execution as the SASS accesses that run.
#include "analysis/atomic_lowering.h"

#include <gtest/gtest.h>

#include <bit>

namespace warpscope::analysis {
namespace {

emu::AccessEvent atomic(model::MemOp op, int width, std::uint32_t mask, std::uint64_t (*address)(int)) {
  emu::AccessEvent e;
  e.access.op = op;
  e.access.width = width;
  e.access.mask = mask;
  for (int l = 0; l < 32; ++l) e.access.address[static_cast<std::size_t>(l)] = address(l);
  return e;
}

AtomicRole role(AtomicLowering l, model::MemOp global_op = model::MemOp::GlobalAtomic) {
  AtomicRole r;
  r.lowering = l;
  r.global_op = global_op;
  r.from_sass = true;
  return r;
}

TEST(AtomicLowering, ElectedLaneRunsAlone) {
  std::vector<LoweredAccess> out;
  lower_atomic(atomic(model::MemOp::SharedAtomic, 4, 0x00ff00ffu, [](int) -> std::uint64_t { return 64; }),
               role(AtomicLowering::Leader), out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(std::popcount(out[0].access.mask), 1);
  EXPECT_EQ(out[0].access.op, model::MemOp::SharedAtomic);
}

TEST(AtomicLowering, ScanLeaderOnlyWhenTheWarpIsFull) {
  std::vector<LoweredAccess> full, partial;
  auto same = [](int) -> std::uint64_t { return 0x1000; };
  lower_atomic(atomic(model::MemOp::GlobalAtomic, 4, ~0u, same), role(AtomicLowering::LeaderWhenFull), full);
  lower_atomic(atomic(model::MemOp::GlobalAtomic, 4, 0x7fffffffu, same), role(AtomicLowering::LeaderWhenFull), partial);
  ASSERT_EQ(full.size(), 1u);
  ASSERT_EQ(partial.size(), 1u);
  EXPECT_EQ(full[0].access.mask, 0x80000000u);
  EXPECT_EQ(partial[0].access.mask, 0x7fffffffu);
}

TEST(AtomicLowering, ReductionsAndPopcIncAreTheSassOps) {
  std::vector<LoweredAccess> red, popc;
  lower_atomic(atomic(model::MemOp::GlobalAtomic, 4, ~0u, [](int l) -> std::uint64_t { return 4u * l; }),
               role(AtomicLowering::Native, model::MemOp::GlobalReduction), red);
  lower_atomic(atomic(model::MemOp::SharedAtomic, 4, ~0u, [](int l) -> std::uint64_t { return 4u * (l % 4); }),
               role(AtomicLowering::PopcInc), popc);
  EXPECT_EQ(red[0].access.op, model::MemOp::GlobalReduction);
  EXPECT_EQ(popc[0].access.op, model::MemOp::SharedAtomicAggregated);
}

TEST(AtomicLowering, GlobalCasLoopLoadsOnceThenTriesPerRound) {
  // 16-bit atomics on a global word: lanes l hit half l % 4 of words (l % 4) / 2: two words,
  // 16 lanes each: one LD, then 16 rounds of ATOM.CAS on the 32-bit words.
  std::vector<LoweredAccess> out;
  lower_atomic(atomic(model::MemOp::GlobalAtomic, 2, ~0u, [](int l) -> std::uint64_t { return 0x2000 + 2u * (l % 4); }),
               role(AtomicLowering::CasLoop), out);
  ASSERT_EQ(out.size(), 17u);
  EXPECT_TRUE(out[0].companion);
  EXPECT_EQ(out[0].access.op, model::MemOp::GlobalLoad);
  EXPECT_EQ(out[0].access.width, 4);
  EXPECT_EQ(out[1].access.op, model::MemOp::GlobalAtomic);
  EXPECT_EQ(out[1].access.mask, ~0u);
  EXPECT_EQ(out[1].access.address[3], 0x2004u);  // rounded down to its word
  EXPECT_EQ(std::popcount(out[16].access.mask), 2);  // the last round: one lane per word
  EXPECT_TRUE(timing_dependent(role(AtomicLowering::CasLoop), model::Space::Global));
  EXPECT_FALSE(timing_dependent(role(AtomicLowering::Native), model::Space::Shared));
}

TEST(AtomicLowering, GenericAtomFallsBackToACasLoopOnSharedAddresses) {
  AtomicRole r = role(AtomicLowering::Native);
  r.shared_fallback = true;
  std::vector<LoweredAccess> shared, global;
  lower_atomic(atomic(model::MemOp::SharedAtomic, 4, 0xfu, [](int) -> std::uint64_t { return 8; }), r, shared);
  lower_atomic(atomic(model::MemOp::GlobalAtomic, 4, 0xfu, [](int) -> std::uint64_t { return 8; }), r, global);
  EXPECT_EQ(shared.size(), 8u);  // 4 rounds of LDS + ATOMS.CAST
  EXPECT_EQ(global.size(), 1u);  // the ATOM itself
  EXPECT_TRUE(timing_dependent(r, model::Space::Shared));
  EXPECT_FALSE(timing_dependent(r, model::Space::Global));
}

// A compare-and-swap on shared memory carries two operands (ATOMS.CAS, a loop's ATOMS.CAST:
// twice an exchange's wavefronts on the H200); a generic ATOM counts as such (its try before a
// shared CAS loop once, on the first round).
TEST(AtomicLowering, SharedCasCountsTwoOperandsAndGenericAtomsAreMarked) {
  auto words = [](int l) -> std::uint64_t { return 4u * (l % 8); };
  ptx::Instruction cas;
  cas.subop = ptx::SubOp::Cas;
  ptx::Instruction exch;
  exch.subop = ptx::SubOp::Exch;
  emu::AccessEvent e = atomic(model::MemOp::SharedAtomic, 4, ~0u, words);
  std::vector<LoweredAccess> out;
  e.instruction = &cas;
  lower_atomic(e, role(AtomicLowering::Native), out);
  e.instruction = &exch;
  lower_atomic(e, role(AtomicLowering::Native), out);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].operands, 2);
  EXPECT_EQ(out[1].operands, 1);
  EXPECT_FALSE(out[0].generic);

  AtomicRole fallback = role(AtomicLowering::Native);
  fallback.shared_fallback = true;
  fallback.generic = true;
  out.clear();
  lower_atomic(atomic(model::MemOp::SharedAtomic, 4, ~0u, words), fallback, out);
  ASSERT_EQ(out.size(), 8u);  // 4 rounds
  for (std::size_t k = 1; k < out.size(); k += 2) {
    EXPECT_EQ(out[k].operands, 2) << k;          // ATOMS.CAST
    EXPECT_EQ(out[k].generic, k == 1) << k;      // the ATOM's try: once
    EXPECT_EQ(out[k - 1].operands, 1) << k;      // LDS
  }
  out.clear();
  lower_atomic(atomic(model::MemOp::GlobalAtomic, 4, ~0u, words), fallback, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].generic);
  EXPECT_EQ(out[0].operands, 1);
  // An integer generic ATOM succeeds on a shared address: an ordinary shared atomic.
  AtomicRole generic = role(AtomicLowering::Native);
  generic.generic = true;
  out.clear();
  lower_atomic(atomic(model::MemOp::SharedAtomic, 4, ~0u, words), generic, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(out[0].generic);
}

TEST(AtomicLowering, RetriedSwapsAreTimingDependent) {
  AtomicRole r = role(AtomicLowering::Native);
  EXPECT_FALSE(timing_dependent(r, model::Space::Global));
  r.retried = true;  // a spin lock's acquire
  EXPECT_TRUE(timing_dependent(r, model::Space::Global));
}

}  // namespace
}  // namespace warpscope::analysis
