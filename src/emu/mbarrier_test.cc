// mbarrier_test.cc: the mbarrier state's encoding (against what ptxas's code writes and
// reads) and its phase logic, against a plain model of the PTX ISA's rules.
#include "emu/mbarrier.h"

#include <gtest/gtest.h>

#include <random>

namespace warpscope::emu::mbarrier {
namespace {

// ptxas compiles mbarrier.init.shared::cta.b64 [bar], 5 to SYNCS.EXCH.64 of the register
// pair UR4 = (0x100000 - 5) << 1, UR5 = (0x100000 - 5) << 11 (nvdisasm, sm_90a), and
// mbarrier.pending_count to 0x100000 - ((state_hi >> 11) & 0xfffff).
TEST(Mbarrier, InitIsWhatPtxasStores) {
  for (std::uint32_t count : {1u, 5u, 128u, 256u, 1048575u}) {
    std::uint64_t lo = (0x100000u - count) << 1, hi = static_cast<std::uint64_t>(0x100000u - count) << 11;
    EXPECT_EQ(init(count), (hi << 32) | lo) << count;
    EXPECT_EQ(pending_count(init(count)), count) << count;
  }
}

TEST(Mbarrier, PhaseCompletesWhenArrivalsAndBytesAreIn) {
  std::uint64_t s = init(2);
  EXPECT_FALSE(phase_complete_parity(s, 0));
  EXPECT_TRUE(phase_complete_parity(s, 1));  // the phase "before" the first counts as done
  Update u = arrive(s, 1, 1024, false);      // arrive.expect_tx: one arrival, 1024 bytes expected
  EXPECT_FALSE(u.completed);
  u = arrive(u.bits, 1, 0, false);
  EXPECT_FALSE(u.completed) << "bytes still pending";
  EXPECT_EQ(decode(u.bits).pending, 0u);
  EXPECT_EQ(decode(u.bits).tx, 1024);
  u = complete_tx(u.bits, 1000);
  EXPECT_FALSE(u.completed);
  u = complete_tx(u.bits, 24);
  EXPECT_TRUE(u.completed);
  State st = decode(u.bits);
  EXPECT_TRUE(st.phase);
  EXPECT_EQ(st.pending, 2u);  // reloaded
  EXPECT_EQ(st.tx, 0);
  EXPECT_TRUE(phase_complete_parity(u.bits, 0));
  EXPECT_FALSE(phase_complete_parity(u.bits, 1));
}

TEST(Mbarrier, BytesMayArriveBeforeTheyAreExpected) {
  // A copy can finish before the producer's expect_tx: the count goes below zero.
  Update u = complete_tx(init(1), 4096);
  EXPECT_EQ(decode(u.bits).tx, -4096);
  EXPECT_FALSE(u.completed);
  u = arrive(u.bits, 1, 4096, false);
  EXPECT_TRUE(u.completed);
}

TEST(Mbarrier, TokensNameTheirPhase) {
  std::uint64_t s = init(1);
  std::uint64_t token = s;  // arrive returns the state before
  Update u = arrive(s, 1, 0, false);
  EXPECT_TRUE(u.completed);
  EXPECT_TRUE(phase_complete_token(u.bits, token));
  EXPECT_FALSE(phase_complete_token(u.bits, u.bits));
  EXPECT_EQ(pending_count(token), 1u);
}

TEST(Mbarrier, ArriveDropLowersLaterPhases) {
  Update u = arrive(init(3), 1, 0, true);  // one thread leaves for good
  EXPECT_EQ(decode(u.bits).expected, 2u);
  u = arrive(u.bits, 2, 0, false);
  EXPECT_TRUE(u.completed);
  EXPECT_EQ(decode(u.bits).pending, 2u);
}

TEST(Mbarrier, OverArrivalIsFlagged) {
  Update u = arrive(init(1), 2, 0, false);
  EXPECT_TRUE(u.overflow);
}

// Random arrive/expect/complete sequences against a plain model of the rules.
TEST(Mbarrier, RandomSequencesFollowTheRules) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    std::uint32_t expected = 1 + rng() % 300;
    std::uint64_t bits = init(expected);
    std::uint32_t pending = expected;
    std::int64_t tx = 0;
    bool phase = false;
    for (int step = 0; step < 40; ++step) {
      Update u;
      int what = static_cast<int>(rng() % 3);
      std::uint32_t n = rng() % 5000;
      if (what == 0 && pending > 0) {
        std::uint32_t count = 1 + rng() % pending;
        u = arrive(bits, count, n % 2 ? n : 0, false);
        pending -= count;
        tx += n % 2 ? n : 0;
      } else if (what == 1) {
        u = expect_tx(bits, n);
        tx += n;
      } else {
        u = complete_tx(bits, n);
        tx -= n;
      }
      bool completes = pending == 0 && tx == 0;
      ASSERT_EQ(u.completed, completes) << trial << " " << step;
      if (completes) {
        phase = !phase;
        pending = expected;
      }
      State s = decode(u.bits);
      ASSERT_EQ(s.pending, pending);
      ASSERT_EQ(s.tx, tx);
      ASSERT_EQ(s.phase, phase);
      ASSERT_EQ(s.expected, expected);
      bits = u.bits;
    }
  }
}

}  // namespace
}  // namespace warpscope::emu::mbarrier
