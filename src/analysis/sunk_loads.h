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
#pragma once

#include <cstdint>
#include <unordered_map>

#include "analysis/merge_assembler.h"
#include "emu/events.h"

namespace warpscope::analysis {

class SunkLoads {
 public:
  explicit SunkLoads(MergeAssembler::Sink& sink) : sink_(sink) {}

  // A load whose lanes its store decides (`store`, the plan's sunk_into): held.
  void hold(const emu::AccessEvent& e, const ptx::Instruction* store) { held_[key(e.block_index, e.warp)] = {e, store}; }
  // Any other access of the warp: the load it holds runs now for the lanes of its store, or
  // never (the store had no lane, so every lane left before the load).
  void touch(const emu::AccessEvent& e) {
    if (held_.empty()) return;
    auto it = held_.find(key(e.block_index, e.warp));
    if (it == held_.end()) return;
    if (e.instruction == it->second.store) {
      emu::AccessEvent load = it->second.load;
      load.access.mask &= e.access.mask;
      if (load.access.mask != 0) sink_.run(load, load.access);
    }
    held_.erase(it);
  }
  void end_round(std::uint64_t block_index, int warp) { held_.erase(key(block_index, warp)); }
  void end_block(std::uint64_t block_index) {
    for (auto it = held_.begin(); it != held_.end();) it = (it->first >> 8 == block_index) ? held_.erase(it) : std::next(it);
  }

 private:
  struct Held {
    emu::AccessEvent load;
    const ptx::Instruction* store = nullptr;
  };
  static std::uint64_t key(std::uint64_t block_index, int warp) { return block_index << 8 | static_cast<std::uint64_t>(warp); }
  MergeAssembler::Sink& sink_;
  std::unordered_map<std::uint64_t, Held> held_;
};

}  // namespace warpscope::analysis
