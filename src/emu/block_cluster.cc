// block_cluster.cc: the block runner's part in clusters and warp specialization:
// barrier.cluster, the deadlock report, and run_cluster (a cluster's blocks in one
// worker, their warps taking turns round by round).
#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>

#include "emu/block.h"
#include "emu/lanes.h"
#include "emu/mbarrier.h"
#include "emu/shared_address.h"

namespace warpscope::emu {
namespace {

std::string hex(std::uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

}  // namespace

// barrier.cluster.arrive counts each thread once per phase (threads that exited count as
// arrived); barrier.cluster.wait lets a thread through once the phase it arrived in has
// completed, and puts it to sleep (like an mbarrier wait) until then.
bool BlockRunner::cluster_barrier(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec) {
  ClusterContext& c = *ctx_.cluster;
  if (op.opcode == ptx::Opcode::BarrierClusterArrive) {
    if (w.cluster_generation != c.barrier.generation) w.cluster_arrived = 0;
    std::uint32_t fresh = exec & ~w.cluster_arrived;
    c.barrier.arrived += static_cast<std::uint64_t>(std::popcount(fresh));
    w.cluster_arrived |= fresh;
    w.cluster_generation = c.barrier.generation;
    complete_cluster_barrier_if_due();
    advance(w, mask, pc + 1);
    if (!w.converged) try_reconverge(w);
    return true;
  }
  std::uint32_t waiting = w.cluster_generation == c.barrier.generation ? exec & w.cluster_arrived : 0;
  if (waiting != 0) {
    w.mbar_waiting |= waiting;
    w.mbar_epoch = c.mbarrier_epoch;
    w.mbar_pc = pc;
    w.cluster_wait = true;
    if (std::uint32_t go = mask & ~waiting; go != 0) {
      diverge(w);
      advance(w, go, pc + 1);
    }
    return true;
  }
  w.cluster_arrived &= ~exec;
  advance(w, mask, pc + 1);
  if (!w.converged) try_reconverge(w);
  return true;
}

void BlockRunner::complete_cluster_barrier_if_due() {
  ClusterContext& c = *ctx_.cluster;
  if (c.barrier.arrived == 0 || c.barrier.arrived + c.exited_threads < c.threads) return;
  c.barrier.arrived = 0;
  ++c.barrier.generation;
  ++c.mbarrier_epoch;  // wakes the waiters
}

void BlockRunner::note_exit(Warp& w, std::uint32_t lanes) {
  ClusterContext& c = *ctx_.cluster;
  // A thread that arrived in this phase and then exits is counted once, as exited.
  if (w.cluster_generation == c.barrier.generation)
    c.barrier.arrived -= static_cast<std::uint64_t>(std::popcount(lanes & w.cluster_arrived));
  w.cluster_arrived &= ~lanes;
  c.exited_threads += static_cast<std::uint64_t>(std::popcount(lanes));
  complete_cluster_barrier_if_due();
}

// "warp 1 waits for phase parity 0 of the mbarrier at shared 0x400 ('full' + 0x0): 1 of 1
// arrivals and 16384 transaction bytes pending, at k.ptx:80 (k.cu:41)"
std::string BlockRunner::describe_wait(const Warp& w) {
  std::string out = "warp " + std::to_string(w.index);
  const std::uint32_t saved = ctx_.pc;
  if ((w.mbar_waiting & w.live()) != 0 && w.cluster_wait) {
    const ClusterContext& c = *ctx_.cluster;
    out += " waits at barrier.cluster.wait (" + std::to_string(c.barrier.arrived + c.exited_threads) + " of " +
           std::to_string(c.threads) + " threads of the cluster arrived)";
    ctx_.pc = w.mbar_pc;
  } else if ((w.mbar_waiting & w.live()) != 0) {
    std::uint64_t offset = w.mbar_address & kClusterOffsetMask;
    int rank = cluster_rank_of(w.mbar_address, ctx_.cluster_rank);
    out += w.mbar_parity >= 0 ? " waits for phase parity " + std::to_string(w.mbar_parity) : std::string(" waits for the phase of its token");
    out += " of the mbarrier at shared " + hex(offset);
    if (rank != ctx_.cluster_rank) out += " of block rank " + std::to_string(rank);
    for (std::size_t i = 0; i < ctx_.first_buffer_region; ++i) {
      const Region& r = (*ctx_.regions)[i];
      if (offset >= r.base && offset < r.base + std::max<std::uint64_t>(r.size, 1)) {
        out += " ('" + r.name + "' + " + hex(offset - r.base) + ")";
        break;
      }
    }
    if (const std::uint8_t* p = cluster_shared(ctx_, w.mbar_address, 8)) {
      std::uint64_t bits;
      std::memcpy(&bits, p, 8);
      mbarrier::State s = mbarrier::decode(bits);
      out += ": in phase " + std::to_string(s.phase ? 1 : 0) + ", " + std::to_string(s.pending) + " of " +
             std::to_string(s.expected) + " arrivals and " + std::to_string(s.tx) + " transaction bytes pending";
    }
    ctx_.pc = w.mbar_pc;
  } else if ((w.blocked & w.live()) != 0 && w.barrier >= 0) {
    const BarrierState& b = barriers_[static_cast<std::size_t>(w.barrier)];
    out += " waits at barrier " + std::to_string(w.barrier) + " (" + std::to_string(b.arrived) + " of " +
           std::to_string(b.expected) + " threads arrived)";
    ctx_.pc = b.pc;
  } else {
    ctx_.pc = saved;
    return out + " can run";
  }
  out += ", at " + ctx_.where();
  ctx_.pc = saved;
  return out;
}

void BlockRunner::report_deadlock() {
  std::string message = "deadlock in block " + to_string(ctx_.block) + ": no warp can make progress";
  const Warp* first = nullptr;
  int exited = 0;
  for (const Warp& w : warps_) {
    if (w.done()) {
      ++exited;
      continue;
    }
    if (first == nullptr) first = &w;
    message += "; " + describe_wait(w);
  }
  if (exited > 0) message += "; " + std::to_string(exited) + " warp(s) have exited";
  if (first == nullptr) return;
  const std::uint32_t saved = ctx_.pc;
  ctx_.pc = (first->mbar_waiting & first->live()) != 0 ? first->mbar_pc
            : first->barrier >= 0                      ? barriers_[static_cast<std::size_t>(first->barrier)].pc
                                                       : saved;
  int lane = std::countr_zero(first->live() | (1u << 31));
  ctx_.diagnose(Diagnostic::Kind::Deadlock, Diagnostic::Severity::Error, first->index, lane, message);
  ctx_.pc = saved;
}

void BlockRunner::attach(ClusterContext& cluster, int rank) {
  auto r = static_cast<std::size_t>(rank);
  if (cluster.shared.size() <= r) cluster.shared.resize(r + 1, nullptr);
  if (cluster.shared_written.size() <= r) cluster.shared_written.resize(r + 1, nullptr);
  cluster.shared[r] = shared_.data();
  cluster.shared_written[r] = shared_written_.empty() ? nullptr : shared_written_.data();
  cluster.shared_size = static_cast<std::uint32_t>(shared_.size());
  cluster.threads += threads_;
}

bool run_cluster(std::vector<std::unique_ptr<BlockRunner>>& runners, ClusterContext* cluster,
                 const std::vector<std::uint64_t>& blocks) {
  if (cluster != nullptr) {
    cluster->size = static_cast<std::uint32_t>(blocks.size());
    cluster->mbarrier_epoch = 0;
    cluster->barrier = {};
    cluster->exited_threads = 0;
    cluster->threads = 0;
    for (std::size_t r = 0; r < blocks.size(); ++r) runners[r]->attach(*cluster, static_cast<int>(r));
  }
  for (std::size_t r = 0; r < blocks.size(); ++r)
    runners[r]->begin(blocks[r], cluster, cluster != nullptr ? static_cast<int>(r) : 0);
  bool ok = true;
  for (;;) {
    bool progressed = false, done = true;
    for (std::size_t r = 0; r < blocks.size() && ok; ++r) {
      if (runners[r]->done()) continue;
      // A cluster's blocks take one turn each; a cooperative launch's run each until it
      // spins (waits on another block) or waits, so that every wait polls as few times as
      // the blocks' order allows (a grid barrier: about twice per block).
      do {
        ok = runners[r]->step();
        progressed = progressed || runners[r]->progressed();
      } while (ok && cluster == nullptr && !runners[r]->done() && runners[r]->progressed() && !runners[r]->spun());
      done = done && runners[r]->done();
    }
    if (!ok || done) break;
    if (!progressed) {
      // Nothing moved in the whole cluster: a block may still release an exited-thread
      // barrier; otherwise each stuck block reports its deadlock.
      bool any = false;
      for (std::size_t r = 0; r < blocks.size(); ++r)
        if (!runners[r]->done()) any = runners[r]->unstick() || any;
      if (!any) {
        ok = false;
        break;
      }
    }
  }
  for (std::size_t r = 0; r < blocks.size(); ++r) runners[r]->finish();
  return ok && std::none_of(runners.begin(), runners.begin() + static_cast<std::ptrdiff_t>(blocks.size()),
                            [](const std::unique_ptr<BlockRunner>& b) { return b->failed(); });
}

}  // namespace warpscope::emu
