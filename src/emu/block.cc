// block.cc: the block runner's set-up and warp scheduler (see block.h and warp.h).
#include "emu/block.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "emu/lanes.h"
#include "emu/special_registers.h"
#include "emu/tensor_exec.h"
#include "ptx/source_position.h"

namespace warpscope::emu {

void BlockContext::diagnose(Diagnostic::Kind kind, Diagnostic::Severity severity, int warp, int lane,
                            std::string message) {
  if (severity == Diagnostic::Severity::Error) failed = true;
  // One entry per instruction, kind and severity (a kind that can be either keeps its error).
  static_assert(static_cast<int>(Diagnostic::Kind::NotModelled) < 16, "kinds fit the key");
  std::size_t key = (static_cast<std::size_t>(pc) * 16 + static_cast<std::size_t>(kind)) * 2 +
                    (severity == Diagnostic::Severity::Error ? 1 : 0);
  if (warned.size() <= key) warned.resize(key + 1, 0);
  if (warned[key] != 0) {
    diagnostics[warned[key] - 1].count++;
    return;
  }
  Diagnostic d;
  d.severity = severity;
  d.kind = kind;
  d.message = std::move(message);
  d.instruction = pc < program->code.size() ? program->code[pc].origin : nullptr;
  d.block = block;
  d.thread = thread_of(warp, lane);
  diagnostics.push_back(std::move(d));
  warned[key] = static_cast<std::int32_t>(diagnostics.size());
}

Dim3 BlockContext::thread_of(int warp, int lane) const {
  std::uint32_t t = static_cast<std::uint32_t>(warp) * 32 + static_cast<std::uint32_t>(lane);
  return Dim3{t % block_dim.x, (t / block_dim.x) % block_dim.y, t / (block_dim.x * block_dim.y)};
}

std::string BlockContext::where() const {
  const ptx::Instruction* origin = pc < program->code.size() ? program->code[pc].origin : nullptr;
  return origin != nullptr ? ptx::source_position(*program->module, *origin) : "the end of the kernel";
}

bool unsupported(const Op& op, Warp& w, std::uint32_t mask, BlockContext& ctx) {
  int lane = std::countr_zero(mask == 0 ? 1u : mask);
  std::string text = op.origin != nullptr ? op.origin->text : std::string(ptx::opcode_name(op.opcode));
  std::string why = op.origin != nullptr && !op.origin->unsupported_reason.empty()
                        ? op.origin->unsupported_reason
                        : "warpscope does not emulate it yet (docs/ptx.md)";
  ctx.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, lane,
               "unsupported instruction '" + text + "' at " + ctx.where() + ": " + why);
  return false;
}

BlockRunner::BlockRunner(const LaunchState& launch, Listener* listener)
    : launch_(launch), program_(*launch.program), listener_(listener) {
  ctx_.program = &program_;
  ctx_.memory = launch.memory;
  ctx_.listener = listener;
  ctx_.regions = &launch.regions;
  ctx_.first_buffer_region = launch.first_buffer_region;
  ctx_.grid = launch.grid;
  ctx_.block_dim = launch.block;
  ctx_.params = launch.params.data();
  ctx_.param_size = static_cast<std::uint32_t>(launch.params.size());
  executed.assign(program_.code.size(), 0);
  threads_ = static_cast<std::uint32_t>(launch.block.count());
  std::uint32_t nwarps = (threads_ + 31) / 32;
  warps_.resize(nwarps);
  rows_.assign(static_cast<std::size_t>(nwarps) * program_.num_rows * 32, 0);
  std::uint32_t shared_size = program_.static_shared_bytes;
  if (launch.dynamic_shared_bytes > 0 || program_.uses_dynamic_shared)
    shared_size = std::max(shared_size, program_.dynamic_shared_offset + launch.dynamic_shared_bytes);
  // The block's allocation is its shared memory rounded up to the allocation unit: accesses
  // past the end but inside it do not fault on the H200 (shared_overread.cu).
  const std::uint32_t window = (shared_size + kSharedAllocationUnit - 1) / kSharedAllocationUnit * kSharedAllocationUnit;
  shared_.assign(window, 0);
  if (launch.check_uninitialized_shared) shared_written_.assign(window, 0);
  reserved_shared_.assign(kReservedSharedBytes, 0);
  ctx_.reserved_shared = reserved_shared_.data();
  sregs_.grid = launch.grid;
  sregs_.block = launch.block;
  sregs_.cluster = launch.cluster;
  sregs_.explicit_cluster = launch.explicit_cluster;
  sregs_.shared_bytes = shared_size;
  sregs_.dynamic_shared_bytes = launch.dynamic_shared_bytes;
  sregs_.grid_workspace = launch.grid_workspace;
  local_.assign(static_cast<std::size_t>(nwarps) * 32 * program_.local_bytes, 0);
  ctx_.shared = shared_.data();
  ctx_.shared_size = shared_size;
  ctx_.shared_window = window;
  ctx_.shared_written = launch.check_uninitialized_shared ? shared_written_.data() : nullptr;
  ctx_.local = local_.data();
  ctx_.local_size = program_.local_bytes;
  // Constant rows never change: fill them once per warp.
  for (std::uint32_t i = 0; i < nwarps; ++i) {
    Warp& w = warps_[i];
    w.rows = rows_.data() + static_cast<std::size_t>(i) * program_.num_rows * 32;
    for (std::size_t c = 0; c < program_.constants.size(); ++c)
      std::fill_n(w.row(program_.first_constant_row + static_cast<std::uint32_t>(c)), 32, program_.constants[c]);
  }
}

void BlockRunner::start_block(std::uint64_t block_index) {
  const Dim3 g = launch_.grid, b = launch_.block;
  ctx_.block_index = block_index;
  ctx_.block = Dim3{static_cast<std::uint32_t>(block_index % g.x), static_cast<std::uint32_t>((block_index / g.x) % g.y),
                    static_cast<std::uint32_t>(block_index / (std::uint64_t(g.x) * g.y))};
  ctx_.last_buffer = nullptr;
  std::fill(shared_.begin(), shared_.end(), 0);
  std::fill(shared_written_.begin(), shared_written_.end(), 0);
  std::fill(reserved_shared_.begin(), reserved_shared_.end(), 0);
  std::fill(local_.begin(), local_.end(), 0);
  barriers_ = {};
  steps_ = 0;
  for (std::size_t i = 0; i < warps_.size(); ++i) {
    Warp& w = warps_[i];
    w.index = static_cast<int>(i);
    std::uint32_t first = static_cast<std::uint32_t>(i) * 32;
    std::uint32_t n = std::min<std::uint32_t>(32, threads_ - first);
    w.valid = n == 32 ? 0xffffffffu : ((1u << n) - 1);
    w.exited = w.blocked = 0;
    w.barrier = -1;
    w.mbar_waiting = 0;
    w.mbar_epoch = 0;
    w.cluster_wait = false;
    w.cluster_arrived = 0;
    w.cluster_generation = 0;
    w.converged = true;
    w.pc = 0;
    w.carry = 0;
    w.depth.fill(0);
    w.reduction_dst = kNoRow;
    w.polled = false;
    w.sync_count = 0;
    // Registers keep the previous block's values (PTX registers start undefined and
    // compiled code never reads one before writing it); the zero row stays zero.
    for (const SregRow& s : program_.sregs) {
      std::uint64_t* r = w.row(s.row);
      SregThread thread;
      thread.ctaid = ctx_.block;
      thread.block_index = block_index;
      thread.warp = static_cast<std::uint32_t>(i);
      for (int l = 0; l < 32; ++l) {
        std::uint32_t t = first + static_cast<std::uint32_t>(l);
        thread.tid = Dim3{t % b.x, (t / b.x) % b.y, t / (b.x * b.y)};
        thread.lane = l;
        r[l] = special_register(s.sreg, s.component, sregs_, thread);
      }
    }
  }
}

bool BlockRunner::run(std::uint64_t block_index) {
  begin(block_index, nullptr, 0);
  bool ok = true;
  for (;;) {
    if (!step()) {
      ok = false;
      break;
    }
    if (done()) break;
    if (!progressed_ && !unstick()) {
      ok = false;
      break;
    }
  }
  finish();
  return ok && !ctx_.failed;
}

void BlockRunner::begin(std::uint64_t block_index, ClusterContext* cluster, int rank) {
  ctx_.cluster_rank = rank;
  ctx_.cluster = cluster;
  start_block(block_index);
  if (cluster == nullptr) {
    own_cluster_.size = 1;
    own_cluster_.shared.assign(1, shared_.data());
    own_cluster_.shared_written.assign(1, shared_written_.empty() ? nullptr : shared_written_.data());
    own_cluster_.shared_size = ctx_.shared_size;
    own_cluster_.mbarrier_epoch = 0;
    own_cluster_.barrier = {};
    own_cluster_.threads = threads_;
    own_cluster_.exited_threads = 0;
    cluster = &own_cluster_;
  }
  ctx_.cluster = cluster;
  ctx_.cluster_rank = rank;
  ctx_.mbarrier_epoch = &cluster->mbarrier_epoch;
  ctx_.bulk_groups = 0;
  if (listener_) listener_->on_block_begin(BlockEvent{ctx_.block, block_index});
}

void BlockRunner::finish() {
  if (listener_) listener_->on_block_end(BlockEvent{ctx_.block, ctx_.block_index});
}

bool BlockRunner::done() const {
  return std::all_of(warps_.begin(), warps_.end(), [](const Warp& w) { return w.done(); });
}

// One turn for every warp that can run, in the launch's warp order.
bool BlockRunner::step() {
  progressed_ = false;
  spun_ = false;
  wake_waiters();
  const std::size_t n = warps_.size();
  order_.resize(n);
  for (std::size_t i = 0; i < n; ++i) order_[i] = launch_.order == WarpOrder::Reverse ? n - 1 - i : i;
  if (launch_.order == WarpOrder::Random) {
    for (std::size_t i = n; i > 1; --i) {  // Fisher-Yates with splitmix64
      std::uint64_t z = (order_state_ += 0x9E3779B97F4A7C15ull);
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
      z ^= z >> 31;
      std::swap(order_[i - 1], order_[z % i]);
    }
  }
  for (std::size_t i : order_) {
    Warp& w = warps_[i];
    if (w.done() || w.runnable() == 0) continue;
    bool progressed = false;
    if (!run_warp(w, progressed)) return false;
    progressed_ = progressed_ || progressed;
  }
  return !(launch_.stop != nullptr && launch_.stop->load(std::memory_order_relaxed) < ctx_.block_index);
}

bool BlockRunner::unstick() { return wake_waiters() || release_deadlocked(); }

bool BlockRunner::wake_waiters() {
  bool woke = false;
  for (Warp& w : warps_) {
    if (w.mbar_waiting == 0 || w.mbar_epoch == *ctx_.mbarrier_epoch) continue;
    w.mbar_waiting = 0;
    w.cluster_wait = false;
    if (!w.converged) try_reconverge(w);
    woke = true;
  }
  return woke;
}

std::uint32_t BlockRunner::parked_lanes(Warp& w) {
  std::uint32_t live = w.live(), parked = 0;
  for (int i = w.sync_count - 1; i >= 0; --i) {
    const SyncPoint& s = w.sync[static_cast<std::size_t>(i)];
    std::uint32_t members = s.mask & live, arrived = 0;
    for_lanes(members, [&](int l) {
      if (w.lane_pc[static_cast<std::size_t>(l)] == s.pc && w.depth[static_cast<std::size_t>(l)] == s.depth)
        arrived |= 1u << l;
    });
    if (arrived == members) {
      if (i == w.sync_count - 1) --w.sync_count;  // everyone is there: the sync point is done
      continue;
    }
    parked |= arrived;
  }
  return parked;
}

bool BlockRunner::run_warp(Warp& w, bool& progressed) {
  const Op* code = program_.code.data();
  const std::uint64_t budget = launch_.step_budget;
  std::uint32_t turn = 0;
  for (;;) {
    if (launch_.quantum != 0 && turn++ >= launch_.quantum) return true;
    std::uint32_t pc, mask;
    if (w.converged) {
      mask = w.runnable();
      pc = w.pc;
      // Sync points the whole warp has reached together are done.
      while (w.sync_count > 0 && w.sync[static_cast<std::size_t>(w.sync_count - 1)].pc == pc &&
             w.sync[static_cast<std::size_t>(w.sync_count - 1)].depth == w.depth[static_cast<std::size_t>(std::countr_zero(w.live() | 1u))])
        --w.sync_count;
    } else {
      std::uint32_t candidates = w.runnable();
      if (w.sync_count > 0) {
        std::uint32_t free = candidates & ~parked_lanes(w);
        if (free == 0 && candidates != 0) {
          // Parked lanes wait for lanes blocked at a barrier: yield. With none blocked the
          // sync point can never complete (unstructured code): drop it.
          if ((w.blocked & w.live()) != 0) return true;
          --w.sync_count;
          continue;
        }
        candidates = free;
      }
      // The lanes of the deepest call frame, then the lowest PC.
      std::uint64_t best = ~0ull;
      mask = 0;
      pc = 0;
      for_lanes(candidates, [&](int l) {
        std::uint64_t key = (std::uint64_t(kMaxCallDepth - w.depth[static_cast<std::size_t>(l)]) << 32) |
                            w.lane_pc[static_cast<std::size_t>(l)];
        if (key < best) {
          best = key;
          mask = 1u << l;
        } else if (key == best) {
          mask |= 1u << l;
        }
      });
      pc = static_cast<std::uint32_t>(best);
    }
    if (mask == 0) return true;
    ctx_.pc = pc;
    if (pc >= program_.code.size()) {
      ctx_.pc = static_cast<std::uint32_t>(program_.code.size() - 1);
      ctx_.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, std::countr_zero(mask),
                    "execution ran past the end of the kernel at " + ctx_.where());
      return false;
    }
    if (++steps_ > budget) {
      ctx_.diagnose(Diagnostic::Kind::StepBudget, Diagnostic::Severity::Error, w.index, std::countr_zero(mask),
                    "block " + to_string(ctx_.block) + " exceeded the step budget of " + std::to_string(budget) +
                        " warp instructions (an endless loop?); warp " + std::to_string(w.index) + " was at " +
                        ctx_.where() +
                        (program_.waits_on_other_blocks && !launch_.cooperative
                             ? ": it spins on memory other blocks write; blocks run one after another unless the "
                               "launch is cooperative (--cooperative: every block resident at once, as a grid "
                               "barrier needs)"
                             : ""));
      return false;
    }
    const Op& op = code[pc];
    if (op.reads_clock) {
      // Clocks advance with the block's instructions (a spin-until-time loop ends).
      for (const SregRow& s : program_.sregs)
        if (is_clock(s.sreg)) std::fill_n(w.row(s.row), 32, clock_reading(s.sreg, steps_));
    }
    std::uint32_t exec = mask;
    if (op.guard != kNoRow) {
      const std::uint64_t* g = w.row(op.guard);
      std::uint32_t on = 0;
      for_lanes(mask, [&](int l) {
        if ((g[l] != 0) != op.guard_negated) on |= 1u << l;
      });
      exec = on;
    }
    progressed = true;
    w.polled = w.polled || op.polls;
    ++executed[pc];
    ++warp_instructions;
    thread_instructions += static_cast<std::uint64_t>(lane_count(exec));
    bool ok = true;
    switch (op.family) {
      case ptx::Family::Control:
        if (!control(op, w, pc, mask, exec)) return false;
        if (w.runnable() == 0) return true;
        if (w.polled && op.opcode == ptx::Opcode::Bra && exec != 0 && op.target <= pc) {
          // A loop that polls memory (a spin-wait): let the other warps run, so the one it
          // waits for can arrive. Each wait then spins as few times as the order allows.
          w.polled = false;
          spun_ = true;
          return true;
        }
        continue;
      case ptx::Family::Nop: break;
      case ptx::Family::Arith: ok = exec == 0 || exec_arith(op, w, exec, ctx_); break;
      case ptx::Family::Special: ok = exec == 0 || exec_special(op, w, exec, ctx_); break;
      case ptx::Family::Bits: ok = exec == 0 || exec_bits(op, w, exec, ctx_); break;
      case ptx::Family::Compare: ok = exec == 0 || exec_compare(op, w, exec, ctx_); break;
      case ptx::Family::Move: ok = exec == 0 || exec_move(op, w, exec, ctx_); break;
      case ptx::Family::Memory: ok = exec == 0 || exec_memory(op, w, exec, ctx_); break;
      case ptx::Family::Warp: ok = exec == 0 || exec_warp(op, w, exec, ctx_); break;
      case ptx::Family::Tensor:
        if (op.opcode == ptx::Opcode::Wgmma) {
          if (!warpgroup(op, w, pc, mask, exec)) return false;
          if (w.runnable() == 0) return true;
          continue;
        }
        ok = exec == 0 || exec_tensor(op, w, exec, ctx_);
        break;
      case ptx::Family::Async: ok = exec == 0 || exec_async(op, w, exec, ctx_); break;
      case ptx::Family::Unsupported: ok = unsupported(op, w, mask, ctx_); break;
    }
    if (!ok || ctx_.failed) return false;
    if (ctx_.wait_lanes != 0) {
      // An mbarrier wait whose phase has not completed: those lanes stay at the wait and
      // sleep until a phase completes; the warp yields so that the others can run.
      std::uint32_t waiting = ctx_.wait_lanes & mask;
      ctx_.wait_lanes = 0;
      w.mbar_waiting |= waiting;
      w.mbar_epoch = *ctx_.mbarrier_epoch;
      w.mbar_pc = pc;
      w.mbar_address = ctx_.wait_address;
      w.mbar_parity = static_cast<std::int8_t>(ctx_.wait_parity);
      w.cluster_wait = ctx_.wait_cluster_barrier;
      ctx_.wait_cluster_barrier = false;
      if (std::uint32_t go = mask & ~waiting; go != 0) {
        diverge(w);
        advance(w, go, pc + 1);
      }
      return true;
    }
    advance(w, mask, pc + 1);
  }
}

void BlockRunner::advance(Warp& w, std::uint32_t mask, std::uint32_t next) {
  if (w.converged) {
    w.pc = next;
    return;
  }
  for_lanes(mask, [&](int l) { w.lane_pc[static_cast<std::size_t>(l)] = next; });
  try_reconverge(w);
}

void BlockRunner::diverge(Warp& w) {
  if (!w.converged) return;
  for_lanes(w.live(), [&](int l) { w.lane_pc[static_cast<std::size_t>(l)] = w.pc; });
  w.converged = false;
}

void BlockRunner::try_reconverge(Warp& w) {
  std::uint32_t live = w.live();
  if (live == 0) {
    w.converged = true;
    return;
  }
  int f = std::countr_zero(live);
  std::uint32_t pc0 = w.lane_pc[static_cast<std::size_t>(f)];
  std::uint8_t d0 = w.depth[static_cast<std::size_t>(f)];
  std::uint32_t blocked = w.blocked & live;
  if (blocked != 0 && blocked != live) return;
  // Lanes asleep at an mbarrier wait stay apart from those that passed it.
  std::uint32_t waiting = w.mbar_waiting & live;
  if (waiting != 0 && waiting != live) return;
  for (std::uint32_t m = live; m != 0; m &= m - 1) {
    int l = std::countr_zero(m);
    if (w.lane_pc[static_cast<std::size_t>(l)] != pc0 || w.depth[static_cast<std::size_t>(l)] != d0) return;
  }
  w.converged = true;
  w.pc = pc0;
}

}  // namespace warpscope::emu
