// sunk_loads.h: loads ptxas moved past an early exit, to run only for the lanes that use them.
//
//   PTX (Triton's masked store of a reduction):   SASS:
//     ld.shared.b32 %r58, [global_smem];            @!P1 EXIT
//     setp.lt.u32 %p19, %r3, 32; and.pred %p17..    LDS R5, [UR4]
//     @%p17 st.global.b32 [%rd11], {%r58};          STG.E [R2.64], R5
//     ret;
// The load's value has one use, a store under a predicate, and nothing after the store reads or
// writes memory: ptxas exits the lanes that do not store before the load (sass_sink.cc finds
// it, InstructionPlan::sunk_into). The warp's load is held until its store: it runs for the
// lanes the store runs for, and not at all when no lane stores (H200, corpus/frontend
// triton_masked_pipelined_sum: 64 load executions, one a block, where the PTX runs 256).
//
// Loads before a branch that skips the region their values are used in (a loop's entry:
// Liger's poly_norm backward loads W[0..2] before `for row in range(row_start, row_end)`,
// which programs past the last row skip) ptxas moves past the branch: held the same way, they
// run when the warp's next access is in the region (sass_sink.cc: InstructionPlan::sunk_until).
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "analysis/merge_assembler.h"
#include "emu/events.h"

namespace warpscope::analysis {

class SunkLoads {
 public:
  explicit SunkLoads(MergeAssembler::Sink& sink) : sink_(sink) {}

  // A load whose lanes its store decides (`store`, the plan's sunk_into), or that runs only
  // when the warp goes on into [store, until) (the plan's sunk_until): held.
  void hold(const emu::AccessEvent& e, const ptx::Instruction* store, const ptx::Instruction* until = nullptr) {
    held_[key(e.block_index, e.warp)].push_back({e, store, until});
  }
  // Any other access of the warp: the loads it holds run now (for the lanes of their store, or
  // their own in a region), or never (no lane got there: every lane left before the load).
  void touch(const emu::AccessEvent& e) {
    if (held_.empty()) return;
    auto it = held_.find(key(e.block_index, e.warp));
    if (it == held_.end()) return;
    std::vector<Held> still;  // region loads whose branch the warp has not reached yet
    for (const Held& h : it->second) {
      emu::AccessEvent load = h.load;
      if (h.until != nullptr) {
        if (std::less<>{}(e.instruction, h.store)) {  // between the load and its branch (another load)
          still.push_back(h);
          continue;
        }
        if (!std::less<>{}(e.instruction, h.until)) continue;
      } else if (e.instruction == h.store) {
        load.access.mask &= e.access.mask;
      } else {
        // An access between the load and its store (another tile's load and store): still held.
        if (std::less<>{}(h.load.instruction, e.instruction) && std::less<>{}(e.instruction, h.store)) still.push_back(h);
        continue;
      }
      if (load.access.mask != 0) sink_.run(load, load.access);
    }
    if (still.empty()) held_.erase(it);
    else it->second = std::move(still);
  }
  void end_round(std::uint64_t block_index, int warp) { held_.erase(key(block_index, warp)); }
  void end_block(std::uint64_t block_index) {
    for (auto it = held_.begin(); it != held_.end();) it = (it->first >> 8 == block_index) ? held_.erase(it) : std::next(it);
  }

 private:
  struct Held {
    emu::AccessEvent load;
    const ptx::Instruction* store = nullptr;
    const ptx::Instruction* until = nullptr;
  };
  static std::uint64_t key(std::uint64_t block_index, int warp) { return block_index << 8 | static_cast<std::uint64_t>(warp); }
  MergeAssembler::Sink& sink_;
  std::unordered_map<std::uint64_t, std::vector<Held>> held_;
};

}  // namespace warpscope::analysis
