// mbarrier.h: the 64-bit state of an mbarrier object, as the sm_90 hardware keeps it in
// shared memory, and its phase logic.
//
//   bit 63     phase parity (flips when a phase completes)
//   62..43     2^20 - pending arrivals: arrivals count up; the carry out is the phase flip
//   41..21     tx-count, 21-bit two's complement (bytes expected minus bytes completed)
//   20..1      2^20 - expected arrivals: the value bits 62..43 are reloaded with
//
// Bits 62..43 and 20..1 are what ptxas's code reads and writes (mbarrier.init of count c
// stores ((2^20-c) << 43) | ((2^20-c) << 1); mbarrier.pending_count(state) is
// 2^20 - bits 62..43); where the hardware keeps the tx-count is not visible in SASS, so
// bits 41..21 are our choice. A phase completes when no arrival and no transaction byte
// is pending; then the pending count is reloaded and the tx-count is zero.
#pragma once

#include <cstdint>

namespace warpscope::emu::mbarrier {

inline constexpr std::uint32_t kMaxCount = (1u << 20) - 1;  // arrivals, and |tx-count|

struct State {
  std::uint32_t expected = 0;  // arrivals per phase
  std::uint32_t pending = 0;   // arrivals still missing in the current phase
  std::int32_t tx = 0;         // transaction bytes still missing (may go below zero)
  bool phase = false;          // the current phase's parity
};

std::uint64_t encode(const State& s);
State decode(std::uint64_t bits);

// What mbarrier.init(count) stores.
std::uint64_t init(std::uint32_t count);

// The result of an update: the new state, whether a phase completed, and whether the
// update was out of range (more arrivals than pending, tx-count overflow).
struct Update {
  std::uint64_t bits = 0;
  bool completed = false;
  bool overflow = false;
};

// arrive(count) with expect_tx(tx) first (tx = 0 for a plain arrive); arrive_drop also
// lowers the expected count of later phases by `count`.
Update arrive(std::uint64_t bits, std::uint32_t count, std::uint32_t tx, bool drop);
// expect_tx (adds) and complete_tx (subtracts) transaction bytes, no arrival.
Update expect_tx(std::uint64_t bits, std::uint32_t tx);
Update complete_tx(std::uint64_t bits, std::uint32_t tx);

// mbarrier.pending_count of a state (a token returned by arrive), as ptxas computes it.
std::uint32_t pending_count(std::uint64_t token);

// Whether the phase a wait names has completed: test_wait/try_wait with a token (the
// state an arrive returned, i.e. the phase it arrived in), or with a parity.
inline bool phase_complete_token(std::uint64_t current, std::uint64_t token) { return ((current ^ token) >> 63) != 0; }
inline bool phase_complete_parity(std::uint64_t current, std::uint32_t parity) {
  return (current >> 63) != (parity & 1u);
}

}  // namespace warpscope::emu::mbarrier
