// warp.h: one warp's state: 32 lanes in lockstep, with per-lane PCs once they diverge.
//
// While the warp is converged every live lane is at `pc`. A divergent branch pushes a
// sync point: its reconvergence PC (the immediate post-dominator, see reconvergence.h)
// and the lanes that took part. Each lane then keeps its own PC; lanes that reach the
// sync point's PC wait there ("parked") until all its live lanes have arrived, like the
// hardware's convergence barriers. Among the lanes free to run, the warp runs those of
// the deepest call frame, then of the lowest PC.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace warpscope::emu {

inline constexpr int kMaxCallDepth = 16;

struct Frame {
  std::uint32_t return_pc = 0;
  std::uint32_t call = 0;  // Program::calls index, to copy return values back
};

struct SyncPoint {
  std::uint32_t pc = 0;
  std::uint32_t mask = 0;
  std::uint8_t depth = 0;
};

inline constexpr int kMaxSyncPoints = 32;

struct Warp {
  int index = 0;                  // warp number within the block
  std::uint64_t* rows = nullptr;  // num_rows * 32 register slots
  std::uint32_t valid = 0;        // lanes that are threads of the block
  std::uint32_t exited = 0;
  std::uint32_t blocked = 0;      // lanes waiting at a barrier
  int barrier = -1;               // the barrier id they wait at
  // Lanes stopped at an mbarrier wait whose phase had not completed (their PC stays at
  // the wait); they run again once another phase completes (mbarrier_epoch moved on).
  std::uint32_t mbar_waiting = 0;
  std::uint64_t mbar_epoch = 0;
  std::uint32_t mbar_pc = 0;      // the wait they stopped at (for the deadlock report)
  std::uint64_t mbar_address = 0; // the mbarrier's shared (or cluster) address
  std::int8_t mbar_parity = -1;   // the phase parity awaited; -1: a token's phase
  bool cluster_wait = false;      // barrier.cluster.wait, not an mbarrier
  std::uint32_t cluster_arrived = 0;     // lanes that did barrier.cluster.arrive ...
  std::uint64_t cluster_generation = 0;  // ... in this phase of the cluster barrier
  bool converged = true;
  std::uint32_t pc = 0;           // all live lanes' PC while converged
  std::uint32_t carry = 0;        // add.cc/sub.cc carry flag per lane
  std::array<std::uint32_t, 32> lane_pc{};
  std::array<std::uint8_t, 32> depth{};
  std::array<std::array<Frame, kMaxCallDepth>, 32> frames{};
  std::array<std::uint32_t, 32> exit_pc{};
  std::array<SyncPoint, kMaxSyncPoints> sync{};
  int sync_count = 0;
  bool polled = false;            // executed a polling read since its last backward branch
  // bar.red waiting for its result: destination row and operation.
  std::uint32_t reduction_dst = 0xffffffffu;

  std::uint32_t live() const { return valid & ~exited; }
  std::uint32_t runnable() const { return valid & ~exited & ~blocked & ~mbar_waiting; }
  bool done() const { return live() == 0; }
  std::uint64_t* row(std::uint32_t r) { return rows + static_cast<std::size_t>(r) * 32; }
};

}  // namespace warpscope::emu
