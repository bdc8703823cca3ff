// control.cc: bra, call, ret, exit, trap and the block barriers (bar.sync, bar.arrive,
// bar.red) for the block runner.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "emu/block.h"
#include "emu/lanes.h"

namespace warpscope::emu {

using ptx::Opcode;

bool BlockRunner::control(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec) {
  switch (op.opcode) {
    case Opcode::Bra: {
      // bra.uni promises a uniform branch; where lanes disagree anyway, each lane goes its own
      // way, as on the H200 (corpus/frontend/asm_labels.cu: a divergent bra.uni loop).
      if (exec == mask) {
        advance(w, mask, exec == 0 ? pc + 1 : op.target);
        return true;
      }
      if (exec == 0) {
        advance(w, mask, pc + 1);
        return true;
      }
      if (listener_) listener_->on_divergence(DivergenceEvent{op.origin, pc, ctx_.block, ctx_.block_index, w.index, exec, mask & ~exec});
      diverge(w);
      push_sync_point(w, op, mask);
      for_lanes(mask, [&](int l) { w.lane_pc[static_cast<std::size_t>(l)] = ((exec >> l) & 1u) ? op.target : pc + 1; });
      try_reconverge(w);
      return true;
    }
    case Opcode::Call: return call(op, w, pc, mask, exec);
    case Opcode::BarrierClusterArrive: case Opcode::BarrierClusterWait:
      return cluster_barrier(op, w, pc, mask, exec);
    case Opcode::Ret: return ret(w, pc, mask, exec);
    case Opcode::Exit: {
      for_lanes(exec, [&](int l) { w.exit_pc[static_cast<std::size_t>(l)] = pc; });
      note_exit(w, exec & ~w.exited);
      w.exited |= exec;
      advance(w, mask & ~exec, pc + 1);
      if (!w.converged) try_reconverge(w);
      return true;
    }
    case Opcode::Trap:
      if (exec == 0) {
        advance(w, mask, pc + 1);
        return true;
      }
      ctx_.diagnose(Diagnostic::Kind::Trap, Diagnostic::Severity::Error, w.index, std::countr_zero(exec),
                    "the kernel executed trap in block " + to_string(ctx_.block) + " at " + ctx_.where());
      return false;
    default:
      return barrier(op, w, pc, mask, exec);
  }
}

void BlockRunner::push_sync_point(Warp& w, const Op& op, std::uint32_t mask) {
  if (op.reconverge == kNoRow) return;
  std::uint8_t depth = w.depth[static_cast<std::size_t>(std::countr_zero(mask))];
  if (w.sync_count > 0) {
    const SyncPoint& top = w.sync[static_cast<std::size_t>(w.sync_count - 1)];
    // A loop's divergent exit met again: the existing point already holds these lanes.
    if (top.pc == op.reconverge && top.depth == depth && (mask & ~top.mask) == 0) return;
  }
  if (w.sync_count >= kMaxSyncPoints) return;
  w.sync[static_cast<std::size_t>(w.sync_count++)] = SyncPoint{op.reconverge, mask, depth};
}

std::string BlockRunner::failed_assertion(const CallLink& link, const Warp& w, int lane) const {
  // __assertfail(message, file, line, function, char size): the strings are the module's
  // .global constants.
  const std::uint8_t* local =
      ctx_.local + (static_cast<std::size_t>(w.index) * 32 + static_cast<std::size_t>(lane)) * ctx_.local_size;
  auto arg = [&](std::size_t k) -> std::uint64_t {
    if (k >= link.arguments.size()) return 0;
    std::uint64_t v = 0;
    std::memcpy(&v, local + link.arguments[k].from, std::min<std::uint32_t>(link.arguments[k].size, 8));
    return v;
  };
  auto text = [&](std::uint64_t address) {
    std::string out;
    const Buffer* b = ctx_.memory != nullptr ? ctx_.memory->find(address, 1) : nullptr;
    if (b == nullptr) return out;
    for (std::uint64_t a = address; a < b->base + b->size && out.size() < 200; ++a) {
      const char c = static_cast<char>(b->bytes[a - b->base]);
      if (c == 0) break;
      out += c;
    }
    return out;
  };
  const std::string message = text(arg(0)), file = text(arg(1)), function = text(arg(3));
  std::string s = "assertion failed";
  if (!message.empty()) s += ": `" + message + "`";
  if (!file.empty()) s += " (" + file.substr(file.find_last_of('/') == std::string::npos ? 0 : file.find_last_of('/') + 1) + ":" + std::to_string(static_cast<std::uint32_t>(arg(2))) + ")";
  if (!function.empty()) s += " in " + function;
  return s;
}

bool BlockRunner::call(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec) {
  const CallLink& link = program_.calls[op.target];
  if (link.external) {
    if (link.callee == "__assertfail" && exec != 0) {
      // assert(): the kernel's own check failed (a launch it was not written for, often).
      const int l = std::countr_zero(exec);
      ctx_.diagnose(Diagnostic::Kind::Trap, Diagnostic::Severity::Error, w.index, l,
                    failed_assertion(link, w, l) + " in block " + to_string(ctx_.block) + " thread " +
                        to_string(ctx_.thread_of(w.index, l)) + " at " + ctx_.where());
      return false;
    }
    if (link.callee != "vprintf" && exec != 0) {
      ctx_.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, std::countr_zero(exec),
                    "unsupported call to external function '" + link.callee + "' at " + ctx_.where());
      return false;
    }
    if (exec != 0)  // printf: nothing to emulate, but the GPU's version moves memory
      ctx_.diagnose(Diagnostic::Kind::NotModelled, Diagnostic::Severity::Warning, w.index, std::countr_zero(exec),
                    "printf at " + ctx_.where() +
                        ": the GPU's printf (vprintf) writes its arguments to the driver's buffer with global loads, "
                        "stores and atomics that ncu counts under op_ld, op_st and op_atom; warpscope does not model "
                        "them, so those kernel totals are low by printf's share (its own lines are not)");
    for_lanes(exec, [&](int l) {
      std::uint8_t* local = ctx_.local + (static_cast<std::size_t>(w.index) * 32 + static_cast<std::size_t>(l)) * ctx_.local_size;
      for (const CallLink::Copy& c : link.returns) std::memset(local + c.to, 0, c.size);
    });
    advance(w, mask, pc + 1);
    return true;
  }
  bool too_deep = false;
  for_lanes(exec, [&](int l) {
    auto& depth = w.depth[static_cast<std::size_t>(l)];
    if (depth >= kMaxCallDepth) {
      too_deep = true;
      return;
    }
    w.frames[static_cast<std::size_t>(l)][depth] = Frame{pc + 1, op.target};
    ++depth;
    std::uint8_t* local = ctx_.local + (static_cast<std::size_t>(w.index) * 32 + static_cast<std::size_t>(l)) * ctx_.local_size;
    for (const CallLink::Copy& c : link.arguments) std::memmove(local + c.to, local + c.from, c.size);
  });
  if (too_deep) {
    ctx_.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, std::countr_zero(exec),
                  "calls nested deeper than " + std::to_string(kMaxCallDepth) + " at " + ctx_.where());
    return false;
  }
  if (exec == mask && w.converged) {
    w.pc = link.entry;
    return true;
  }
  diverge(w);
  for_lanes(mask, [&](int l) { w.lane_pc[static_cast<std::size_t>(l)] = ((exec >> l) & 1u) ? link.entry : pc + 1; });
  try_reconverge(w);
  return true;
}

bool BlockRunner::ret(Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec) {
  // Returning from the kernel exits the thread.
  std::uint32_t exiting = 0;
  for_lanes(exec, [&](int l) {
    if (w.depth[static_cast<std::size_t>(l)] == 0) exiting |= 1u << l;
  });
  for_lanes(exiting, [&](int l) { w.exit_pc[static_cast<std::size_t>(l)] = pc; });
  note_exit(w, exiting & ~w.exited);
  w.exited |= exiting;
  std::uint32_t returning = exec & ~exiting;
  std::uint32_t staying = mask & ~exec;
  if (returning == 0) {
    advance(w, staying, pc + 1);
    if (!w.converged) try_reconverge(w);
    return true;
  }
  diverge(w);
  for_lanes(returning, [&](int l) {
    auto li = static_cast<std::size_t>(l);
    Frame f = w.frames[li][--w.depth[li]];
    const CallLink& link = program_.calls[f.call];
    std::uint8_t* local = ctx_.local + (static_cast<std::size_t>(w.index) * 32 + li) * ctx_.local_size;
    for (const CallLink::Copy& c : link.returns) std::memmove(local + c.to, local + c.from, c.size);
    w.lane_pc[li] = f.return_pc;
  });
  for_lanes(staying, [&](int l) { w.lane_pc[static_cast<std::size_t>(l)] = pc + 1; });
  try_reconverge(w);
  return true;
}

bool BlockRunner::barrier(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec) {
  bool is_red = op.opcode == Opcode::BarRed || op.opcode == Opcode::BarrierRed;
  bool waits = op.opcode != Opcode::BarArrive && op.opcode != Opcode::BarrierArrive;
  if (op.opcode != Opcode::BarSync && op.opcode != Opcode::BarrierSync && waits && !is_red)
    return unsupported(op, w, mask, ctx_);
  int first = std::countr_zero(exec == 0 ? mask : exec);
  // Operands: [d,] a{, b}{, c}: barrier id, thread count, predicate (bar.red).
  int nsrc = op.nsrc;
  int count_src = is_red ? (nsrc >= 3 ? 1 : -1) : (nsrc >= 2 ? 1 : -1);
  auto id = nsrc > 0 ? static_cast<int>(w.row(op.src[0])[first]) : 0;
  if (id < 0 || id >= kBarriers) {
    ctx_.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, first,
                  "barrier id " + std::to_string(id) + " out of range at " + ctx_.where());
    return false;
  }
  BarrierState& b = barriers_[static_cast<std::size_t>(id)];
  b.expected = count_src > 0 ? static_cast<std::uint32_t>(w.row(op.src[static_cast<std::size_t>(count_src)])[first]) : threads_;
  b.counted = b.expected != threads_;
  b.pc = pc;
  if (exec != 0 && listener_) {
    BarrierEvent e{op.origin, pc, ctx_.block, ctx_.block_index, w.index, exec};
    listener_->on_barrier(e);
  }
  if (is_red && exec != 0) {
    const std::uint64_t* p = w.row(op.src[static_cast<std::size_t>(nsrc - 1)]);
    bool negate = (op.negated_src >> (nsrc - 1)) & 1u;
    for_lanes(exec, [&](int l) {
      bool v = (p[l] != 0) != negate;
      b.popc += v ? 1u : 0u;
      b.all = b.all && v;
      b.any = b.any || v;
    });
    b.reduction = op.subop;
    w.reduction_dst = op.dst[0];
  }
  b.arrived += static_cast<std::uint32_t>(std::popcount(exec));
  if (waits) {
    w.blocked |= exec;
    w.barrier = id;
  }
  advance(w, mask, pc + 1);
  if (!w.converged) try_reconverge(w);
  if (b.arrived >= b.expected) release(id);
  return true;
}

void BlockRunner::release(int id) {
  BarrierState& b = barriers_[static_cast<std::size_t>(id)];
  std::uint64_t value = b.reduction == ptx::SubOp::Popc ? b.popc
                        : b.reduction == ptx::SubOp::And ? (b.all ? 1u : 0u)
                                                         : (b.any ? 1u : 0u);
  for (Warp& w : warps_) {
    if (w.barrier != id) continue;
    if (w.reduction_dst != kNoRow) {
      std::uint64_t* d = w.row(w.reduction_dst);
      for_lanes(w.blocked, [&](int l) { d[l] = value; });
      w.reduction_dst = kNoRow;
    }
    w.blocked = 0;
    w.barrier = -1;
    if (!w.converged) try_reconverge(w);
  }
  b = BarrierState{};
}

bool BlockRunner::release_deadlocked() {
  if (warpgroup_deadlock()) return false;
  // Lanes asleep at mbarrier or cluster-barrier waits, or named barriers with thread
  // counts (warp specialization): no release can be right, it is a deadlock.
  bool hard = false;
  for (const Warp& w : warps_) hard = hard || (w.mbar_waiting & w.live()) != 0;
  for (const BarrierState& b : barriers_) hard = hard || (b.counted && b.arrived > 0);
  if (hard) {
    report_deadlock();
    return false;
  }
  // Every live thread waits. Threads that exited can never arrive: report and release.
  std::uint32_t exited_threads = 0;
  Dim3 example{};
  std::uint32_t example_pc = 0;
  bool have_example = false;
  for (Warp& w : warps_) {
    std::uint32_t gone = w.valid & w.exited;
    exited_threads += static_cast<std::uint32_t>(std::popcount(gone));
    if (gone != 0 && !have_example) {
      int l = std::countr_zero(gone);
      example = ctx_.thread_of(w.index, l);
      example_pc = w.exit_pc[static_cast<std::size_t>(l)];
      have_example = true;
    }
  }
  bool released = false;
  for (int id = 0; id < kBarriers; ++id) {
    BarrierState& b = barriers_[static_cast<std::size_t>(id)];
    bool waiting = false;
    for (const Warp& w : warps_) waiting = waiting || (w.barrier == id && w.blocked != 0);
    if (!waiting) continue;
    std::uint32_t saved_pc = ctx_.pc;
    ctx_.pc = b.pc;
    std::string exit_where;
    if (have_example) {
      ctx_.pc = example_pc;
      exit_where = ctx_.where();
      ctx_.pc = b.pc;
    }
    int warp_index = 0;
    for (const Warp& w : warps_)
      if (w.barrier == id) {
        warp_index = w.index;
        break;
      }
    std::string message = "barrier at " + ctx_.where() + ": " + std::to_string(b.arrived) + " of " +
                          std::to_string(b.expected) + " threads of block " + to_string(ctx_.block) + " arrived";
    if (exited_threads > 0) {
      message += "; " + std::to_string(exited_threads) + " had exited (thread " + to_string(example) + " at " + exit_where +
                 "): every thread of the block must reach __syncthreads()";
    } else {
      message += "; the others wait at a different barrier or never arrive";
    }
    ctx_.diagnose(Diagnostic::Kind::BarrierDivergence, Diagnostic::Severity::Warning, warp_index, 0, message);
    ctx_.pc = saved_pc;
    release(id);
    released = true;
  }
  return released;
}

}  // namespace warpscope::emu
