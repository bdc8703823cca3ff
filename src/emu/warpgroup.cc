// warpgroup.cc: the block runner's side of wgmma.mma_async (see tensor_exec.h). The four
// warps of a warpgroup arrive at a wgmma one by one, each waiting there (blocked, its pc
// not advanced) like at a barrier; the fourth to arrive runs the instruction for all four
// and releases them past it.
#include <bit>
#include <cstdio>

#include "emu/block.h"
#include "emu/tensor_exec.h"

namespace warpscope::emu {

namespace {
constexpr int kWarpgroupWait = -2;  // Warp::barrier while the warp waits at a wgmma
}

bool BlockRunner::warpgroup(const Op& op, Warp& w, std::uint32_t pc, std::uint32_t mask, std::uint32_t exec) {
  const std::size_t first = static_cast<std::size_t>(w.index / 4) * 4;
  if (exec == 0) {
    advance(w, mask, pc + 1);
    return true;
  }
  if (first + 4 > warps_.size() || warps_[first + 3].valid != 0xffffffffu) {
    ctx_.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, std::countr_zero(exec),
                  "wgmma at " + ctx_.where() + " needs a warpgroup of 4 full warps (threads " + std::to_string(first * 32) +
                      " to " + std::to_string(first * 32 + 127) + "); the block has " + std::to_string(threads_) + " threads");
    return false;
  }
  if (!w.converged || exec != w.live() || exec != 0xffffffffu) {
    char lanes[16];
    std::snprintf(lanes, sizeof lanes, "0x%08x", exec);
    ctx_.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, std::countr_zero(exec),
                  "wgmma at " + ctx_.where() + " is run by part of warp " + std::to_string(w.index) + " (lanes " + lanes +
                      "); every thread of the warpgroup must run it (.aligned)");
    return false;
  }
  w.blocked |= mask;
  w.barrier = kWarpgroupWait;
  std::array<Warp*, 4> group{};
  for (std::size_t i = 0; i < 4; ++i) {
    Warp& o = warps_[first + i];
    if (o.barrier != kWarpgroupWait || !o.converged || o.pc != pc) return true;  // not all here yet
    group[i] = &o;
  }
  ctx_.pc = pc;
  const bool ok = exec_wgmma(op, group, ctx_);
  for (Warp* o : group) {
    o->blocked = 0;
    o->barrier = -1;
    advance(*o, o->live(), pc + 1);
  }
  return ok && !ctx_.failed;
}

bool BlockRunner::warpgroup_deadlock() {
  for (const Warp& w : warps_) {
    if (w.barrier != kWarpgroupWait || w.blocked == 0) continue;
    const std::size_t first = static_cast<std::size_t>(w.index / 4) * 4;
    std::string others;
    for (std::size_t i = first; i < first + 4 && i < warps_.size(); ++i) {
      const Warp& o = warps_[i];
      if (o.barrier == kWarpgroupWait && o.pc == w.pc) continue;
      ctx_.pc = o.converged ? o.pc : o.lane_pc[static_cast<std::size_t>(std::countr_zero(o.live() | 1u))];
      others += (others.empty() ? "" : "; ") + std::string("warp ") + std::to_string(i) +
                (o.done() ? " has exited" : " is at " + ctx_.where());
    }
    ctx_.pc = w.pc;
    ctx_.diagnose(Diagnostic::Kind::BarrierDivergence, Diagnostic::Severity::Error, w.index, 0,
                  "wgmma at " + ctx_.where() + ": warp " + std::to_string(w.index) + " of block " + to_string(ctx_.block) +
                      " waits for the rest of its warpgroup, which never arrives (" + others + ")");
    return true;
  }
  return false;
}

}  // namespace warpscope::emu
