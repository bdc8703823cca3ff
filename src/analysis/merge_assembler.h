// merge_assembler.h: turns the PTX parts of ptxas's vector accesses, as a warp executes them,
// into the SASS accesses that run (the roles come from sass_plan.h).
//
//   static group (parts known): a round collects parts until each has come once; the wide
//     access covers every lane any part ran for (ptxas hoists a merged load to where its
//     first part is, so lanes of a conditional part run it too) and is recorded at the anchor.
//     A store's parts must agree on their lanes; otherwise they run as written.
//     warp 0: ld [%r7] ld [%r7+4] ld [%r7+8] ld [%r7+12]  ->  one 16-byte access
//   dynamic group (a loop ptxas unrolled and merged across iterations): parts are collected
//     into W-aligned blocks per lane; a block every lane filled is one W-byte access, one
//     left unfilled at a barrier or at the block's end runs as its parts (ptxas's remainder
//     code is narrow).
//
// A round also ends at a barrier and at the end of the block.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/sass_plan.h"
#include "emu/events.h"

namespace warpscope::analysis {

class MergeAssembler {
 public:
  // Where the accesses that run go (the cost listener prices them).
  class Sink {
   public:
    virtual ~Sink() = default;
    virtual void run(const emu::AccessEvent& at, const model::WarpAccess& access) = 0;
  };

  explicit MergeAssembler(Sink& sink) : sink_(sink) {}

  void add(const emu::AccessEvent& e, const MergeRole& role);
  // A barrier: nothing merges across it (the blocks of a cluster run interleaved, so warps
  // are told apart by block).
  void end_round(std::uint64_t block_index, int warp);
  void end_block(std::uint64_t block_index);

  std::uint64_t merged() const { return merged_; }

 private:
  struct Pending {
    int group = -1;
    int width = 0;
    bool dynamic = false;
    bool store = false;
    std::uint32_t mask = 0;                 // lanes of the wide access
    std::uint32_t seen_parts = 0;           // static: bit per part
    int parts = 0;
    int anchor = -1;                        // static: index in `events` of the anchor part
    std::array<std::uint64_t, 32> block{};  // per lane: the W-aligned block
    std::array<std::uint16_t, 32> bytes{};  // per lane: bytes of the block the parts covered
    std::vector<emu::AccessEvent> events;   // the parts, to run as written when they do not merge
  };

  void finish(Pending& p, bool complete);
  void run_parts(Pending& p);
  void add_static(std::vector<Pending>& pending, const emu::AccessEvent& e, const MergeRole& role, bool store);
  void add_dynamic(std::vector<Pending>& pending, const emu::AccessEvent& e, const MergeRole& role, bool store);

  Sink& sink_;
  static std::uint64_t key(std::uint64_t block_index, int warp) { return block_index << 8 | static_cast<std::uint64_t>(warp); }
  std::unordered_map<std::uint64_t, std::vector<Pending>> by_warp_;  // by key(block, warp)
  std::uint64_t merged_ = 0;
};

}  // namespace warpscope::analysis
