// global_rewrite.h: the proof run of a global change (global_advice.h): each global access of
// the changed instructions is moved or regrouped as the change would, before the listener
// after it prices it. Like RemapListener for shared layouts, the emulator is untouched
// (values go where the PTX put them); only the costs are those of the changed code.
//
//   AoS to SoA   lane at base + i*S + f        -> base + f * n' + i * width
//   align        a warp's contiguous run        -> the same bytes from the sector below
//   widen        the leading instruction        -> k*width bytes a lane; its partners (or the next
//                                                  k-1 loop iterations) issue nothing
//   stage        a block's accesses of the line -> at the block's end, its distinct elements a
//                                                  warp per row (or 32 to a warp in address order)
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include "emu/events.h"
#include "model/arch.h"

namespace warpscope::analysis {

struct GlobalRewrite {
  enum class Kind { SoA, Align, Widen, WidenLoop, Stage };
  Kind kind = Kind::Align;
  std::vector<std::uint32_t> pcs;  // the instructions it changes (Widen: the leading one first)
  std::uint64_t stride = 0;        // SoA: the struct's bytes
  int factor = 1;                  // Widen, WidenLoop: elements per wider access
  bool packed = false;             // Stage: 32 elements to a warp in address order, not a warp per row
};

class GlobalRewriteListener final : public emu::Listener {
 public:
  GlobalRewriteListener(std::unique_ptr<emu::Listener> next, std::vector<GlobalRewrite> rewrites,
                        std::vector<emu::Region> regions, const model::Arch& arch);

  void on_block_begin(const emu::BlockEvent& e) override;
  void on_access(const emu::AccessEvent& e) override;
  void on_barrier(const emu::BarrierEvent& e) override { next_->on_barrier(e); }
  void on_divergence(const emu::DivergenceEvent& e) override { next_->on_divergence(e); }
  void on_bulk_copy(const emu::BulkCopyEvent& e) override { next_->on_bulk_copy(e); }
  void on_block_end(const emu::BlockEvent& e) override;

  emu::Listener* next() { return next_.get(); }
  std::unique_ptr<emu::Listener> take_next() { return std::move(next_); }

 private:
  struct Staged {
    emu::AccessEvent first;             // the first access of the line in this block (its pc, instruction)
    std::vector<std::uint64_t> elements;
  };
  std::unique_ptr<emu::Listener> next_;
  std::vector<GlobalRewrite> rewrites_;
  std::map<std::uint32_t, std::size_t> by_pc_;  // pc -> rewrites_ index
  std::vector<emu::Region> regions_;
  std::uint64_t sector_ = 32;
  std::map<std::pair<int, std::uint32_t>, std::uint32_t> seq_;  // (warp, pc) -> executions in this block
  std::map<std::size_t, Staged> staged_;                        // rewrite -> this block's elements
};

}  // namespace warpscope::analysis
