// block.h: runs one thread block to completion: warps, their divergence, barriers.
//
// A BlockRunner belongs to one worker thread and is reused for every block that worker
// runs (no allocation per block once warmed up). Warps run one at a time, each until it
// waits at a barrier or finishes, or until it branches back in a loop that polled memory
// (a volatile, relaxed or acquire load, an atomic: a spin-wait on other warps); the
// barrier releases when its thread count has arrived.
// If every live thread waits and the barrier cannot complete because threads exited
// (an early return before __syncthreads), the runner warns and releases it, as the
// hardware does.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "emu/events.h"
#include "emu/exec.h"
#include "emu/launch.h"
#include "emu/program.h"
#include "emu/special_registers.h"
#include "emu/warp.h"

namespace warpscope::emu {

// Everything the workers share, read-only during a run.
struct LaunchState {
  const Program* program = nullptr;
  GlobalMemory* memory = nullptr;
  Dim3 grid, block;
  Dim3 cluster;                   // 1x1x1 unless a cluster launch is configured
  bool explicit_cluster = false;  // %is_explicit_cluster
  bool cooperative = false;          // LaunchConfig::cooperative, or implied (launch.cc)
  std::uint64_t grid_workspace = 0;  // a cooperative launch's, when the kernel reads it
  std::uint32_t dynamic_shared_bytes = 0;
  std::vector<std::uint8_t> params;
  std::vector<Region> regions;
  std::size_t first_buffer_region = 0;
  std::uint64_t step_budget = 0;  // warp instructions per block
  // The warp scheduler (RunOptions::schedule): which warp runs next, for how long.
  WarpOrder order = WarpOrder::Forward;
  std::uint64_t order_seed = 0;
  std::uint32_t quantum = 0;      // warp instructions per turn; 0: until it waits
  bool check_uninitialized_shared = true;
  // The lowest block (linear) that failed, UINT64_MAX while none has: the blocks after it stop
  // early, those before it run on, so that the error reported is the lowest block's whatever
  // the workers' timing.
  std::atomic<std::uint64_t>* stop = nullptr;
};

class BlockRunner {
 public:
  BlockRunner(const LaunchState& launch, Listener* listener);

  // Runs block `block_index` (linear). False if an error diagnostic stopped it.
  bool run(std::uint64_t block_index);

  // For running several blocks together (a cluster, block_cluster.cc): begin() sets the
  // block up, step() gives every runnable warp one turn (false: it stopped on an error),
  // progressed() whether that turn executed anything, finish() ends the block.
  void begin(std::uint64_t block_index, ClusterContext* cluster, int rank);
  bool step();
  bool progressed() const { return progressed_; }
  // Whether a warp's turn in that step ended in a loop that polls memory (a spin-wait).
  bool spun() const { return spun_; }
  bool done() const;
  // After a turn in which no block of the cluster progressed: wakes waiters or releases
  // what the hardware would release; false when it is a deadlock (reported).
  bool unstick();
  void finish();
  // Registers this runner's shared memory as rank `rank` of `cluster` (before begin()).
  void attach(ClusterContext& cluster, int rank);
  bool failed() const { return ctx_.failed; }

  std::vector<Diagnostic>& diagnostics() { return ctx_.diagnostics; }
  std::uint64_t warp_instructions = 0;
  std::uint64_t thread_instructions = 0;
  std::vector<std::uint64_t> executed;  // warp instructions per pc

 private:
  void start_block(std::uint64_t block_index);
  // Runs until the warp waits or finishes; false on a fatal error. `progressed` tells
  // whether it executed anything.
  bool run_warp(Warp& w, bool& progressed);
  // The lanes waiting at an unfinished sync point (pops finished ones).
  std::uint32_t parked_lanes(Warp& w);
  bool control(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec);
  bool barrier(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec);
  void release(int id);
  bool release_deadlocked();
  // Lanes asleep at an mbarrier (or cluster barrier) wait whose epoch moved on run again.
  bool wake_waiters();
  void report_deadlock();
  bool cluster_barrier(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec);
  void complete_cluster_barrier_if_due();
  void note_exit(Warp& w, std::uint32_t lanes);  // for the cluster barrier's count
  std::string describe_wait(const Warp& w);
  std::vector<std::size_t> order_;  // the warps' turns this round
  std::uint64_t order_state_ = 0;
  bool progressed_ = false;
  bool spun_ = false;
  ClusterContext own_cluster_;      // a block outside any cluster is a cluster of one
  void advance(Warp& w, std::uint32_t mask, std::uint32_t next);
  void diverge(Warp& w);
  void push_sync_point(Warp& w, const Op& op, std::uint32_t mask);
  void try_reconverge(Warp& w);
  bool call(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec);
  // "assertion failed: `expr` (file.cu:12) in function" from __assertfail's arguments.
  std::string failed_assertion(const CallLink& link, const Warp& w, int lane) const;
  bool ret(Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec);
  // wgmma.mma_async: waits for the warpgroup's four warps, then runs it once (warpgroup.cc).
  bool warpgroup(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec);
  // An error diagnostic when warps wait at a wgmma their warpgroup never completes.
  bool warpgroup_deadlock();

  const LaunchState& launch_;
  const Program& program_;
  Listener* listener_;
  BlockContext ctx_;
  std::vector<Warp> warps_;
  std::vector<std::uint64_t> rows_;
  std::vector<std::uint8_t> shared_, shared_written_, local_;
  std::vector<std::uint8_t> reserved_shared_;  // the driver's 1 KiB (special_registers.h)
  SregLaunch sregs_;
  std::uint64_t steps_ = 0;
  std::uint32_t threads_ = 0;

  static constexpr int kBarriers = 16;
  struct BarrierState {
    std::uint32_t arrived = 0;
    std::uint32_t expected = 0;
    std::uint32_t pc = 0;
    std::uint32_t popc = 0;
    bool all = true;
    bool any = false;
    bool counted = false;  // a thread count other than the whole block's (bar.sync 1, 128)
    ptx::SubOp reduction = ptx::SubOp::None;
  };
  std::array<BarrierState, kBarriers> barriers_{};
};

// Runs the blocks `blocks` (linear ids, in cluster-rank order) of one cluster together on
// runners[0 .. blocks.size()): every block's warps take turns, round by round, so that
// they can wait on each other (barrier.cluster, remote mbarriers, distributed shared
// memory). With `cluster` null the blocks are not one cluster but co-resident blocks of a
// cooperative launch, each its own cluster of one, that may wait on each other through
// global memory (a grid barrier). False if an error diagnostic stopped a block.
bool run_cluster(std::vector<std::unique_ptr<BlockRunner>>& runners, ClusterContext* cluster,
                 const std::vector<std::uint64_t>& blocks);

}  // namespace warpscope::emu
