// block.cc: the block runner's set-up and warp scheduler (see block.h and warp.h).
#include "emu/block.h"

#include <algorithm>
#include <bit>
#include <cstring>

#include "emu/lanes.h"
#include "ptx/source_position.h"

namespace warpscope::emu {

void BlockContext::diagnose(Diagnostic::Kind kind, Diagnostic::Severity severity, int warp, int lane,
                            std::string message) {
  if (severity == Diagnostic::Severity::Error) failed = true;
  std::size_t key = static_cast<std::size_t>(pc) * 8 + static_cast<std::size_t>(kind);
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
  ctx.diagnose(Diagnostic::Kind::Unsupported, Diagnostic::Severity::Error, w.index, lane,
               "unsupported instruction '" + text + "' at " + ctx.where());
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
  shared_.assign(shared_size, 0);
  if (launch.check_uninitialized_shared) shared_written_.assign(shared_size, 0);
  local_.assign(static_cast<std::size_t>(nwarps) * 32 * program_.local_bytes, 0);
  ctx_.shared = shared_.data();
  ctx_.shared_size = shared_size;
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
    w.converged = true;
    w.pc = 0;
    w.carry = 0;
    w.depth.fill(0);
    w.reduction_dst = kNoRow;
    w.sync_count = 0;
    // Registers keep the previous block's values (PTX registers start undefined and
    // compiled code never reads one before writing it); the zero row stays zero.
    for (const SregRow& s : program_.sregs) {
      std::uint64_t* r = w.row(s.row);
      for (int l = 0; l < 32; ++l) {
        std::uint32_t t = first + static_cast<std::uint32_t>(l);
        Dim3 tid{t % b.x, (t / b.x) % b.y, t / (b.x * b.y)};
        auto pick = [&](const Dim3& d) { return s.component == 0 ? d.x : s.component == 1 ? d.y : d.z; };
        std::uint64_t v = 0;
        switch (s.sreg) {
          case ptx::Sreg::Tid: v = pick(tid); break;
          case ptx::Sreg::Ntid: v = pick(b); break;
          case ptx::Sreg::Ctaid: v = pick(ctx_.block); break;
          case ptx::Sreg::Nctaid: v = pick(g); break;
          case ptx::Sreg::Laneid: v = static_cast<std::uint64_t>(l); break;
          case ptx::Sreg::Warpid: v = i; break;
          case ptx::Sreg::Nwarpid: v = warps_.size(); break;
          case ptx::Sreg::LanemaskEq: v = 1ull << l; break;
          case ptx::Sreg::LanemaskLt: v = (1ull << l) - 1; break;
          case ptx::Sreg::LanemaskLe: v = (2ull << l) - 1; break;
          case ptx::Sreg::LanemaskGt: v = 0xffffffffull & ~((2ull << l) - 1); break;
          case ptx::Sreg::LanemaskGe: v = 0xffffffffull & ~((1ull << l) - 1); break;
          case ptx::Sreg::DynamicSmemSize: v = launch_.dynamic_shared_bytes; break;
          case ptx::Sreg::TotalSmemSize: v = ctx_.shared_size; break;
          case ptx::Sreg::Nsmid: v = 132; break;
          default: v = 0; break;  // %clock, %smid, %globaltimer: any value is valid
        }
        r[l] = v;
      }
    }
  }
}

bool BlockRunner::run(std::uint64_t block_index) {
  start_block(block_index);
  BlockEvent be{ctx_.block, block_index};
  if (listener_) listener_->on_block_begin(be);
  bool ok = true;
  for (;;) {
    bool any_runnable = false, all_done = true;
    for (Warp& w : warps_) {
      if (w.done()) continue;
      all_done = false;
      if (w.runnable() == 0) continue;
      bool progressed = false;
      if (!run_warp(w, progressed)) {
        ok = false;
        break;
      }
      any_runnable = any_runnable || progressed;
    }
    if (!ok || all_done) break;
    if (launch_.stop != nullptr && launch_.stop->load(std::memory_order_relaxed)) {
      ok = false;
      break;
    }
    if (!any_runnable && !release_deadlocked()) {
      ok = false;
      break;
    }
  }
  if (listener_) listener_->on_block_end(be);
  return ok && !ctx_.failed;
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
  for (;;) {
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
                        ctx_.where());
      return false;
    }
    const Op& op = code[pc];
    if (op.reads_clock) {
      // Clocks advance with the block's instructions (a spin-until-time loop ends).
      for (const SregRow& s : program_.sregs)
        if (s.sreg == ptx::Sreg::Clock || s.sreg == ptx::Sreg::Clock64 || s.sreg == ptx::Sreg::Globaltimer)
          std::fill_n(w.row(s.row), 32, steps_ * (s.sreg == ptx::Sreg::Globaltimer ? 1000u : 4u));
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
    ++executed[pc];
    ++warp_instructions;
    thread_instructions += static_cast<std::uint64_t>(lane_count(exec));
    bool ok = true;
    switch (op.family) {
      case ptx::Family::Control:
        if (!control(op, w, pc, mask, exec)) return false;
        if (w.runnable() == 0) return true;
        continue;
      case ptx::Family::Nop: break;
      case ptx::Family::Arith: ok = exec == 0 || exec_arith(op, w, exec, ctx_); break;
      case ptx::Family::Special: ok = exec == 0 || exec_special(op, w, exec, ctx_); break;
      case ptx::Family::Bits: ok = exec == 0 || exec_bits(op, w, exec, ctx_); break;
      case ptx::Family::Compare: ok = exec == 0 || exec_compare(op, w, exec, ctx_); break;
      case ptx::Family::Move: ok = exec == 0 || exec_move(op, w, exec, ctx_); break;
      case ptx::Family::Memory: ok = exec == 0 || exec_memory(op, w, exec, ctx_); break;
      case ptx::Family::Warp: ok = exec == 0 || exec_warp(op, w, exec, ctx_); break;
      case ptx::Family::Unsupported: ok = unsupported(op, w, mask, ctx_); break;
    }
    if (!ok || ctx_.failed) return false;
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
  for (std::uint32_t m = live; m != 0; m &= m - 1) {
    int l = std::countr_zero(m);
    if (w.lane_pc[static_cast<std::size_t>(l)] != pc0 || w.depth[static_cast<std::size_t>(l)] != d0) return;
  }
  w.converged = true;
  w.pc = pc0;
}

}  // namespace warpscope::emu
