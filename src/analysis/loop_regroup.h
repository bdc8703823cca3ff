// loop_regroup.h: runs the accesses of a loop ptxas unrolled into regions (sass_plan.h:
// UnrolledLoop) as its SASS does, warp by warp.
//
// The emulator runs the PTX loop: iteration i of every lane that has one is one warp access.
// The SASS runs regions: with a loop of 4 copies, a block of 2 and a loop of 1, a lane with p
// iterations runs p / 4 trips of the first (iterations 4j..4j+3 in trip j), then the block if 2
// remain, then the rest one a trip. A warp runs each trip and block for the lanes that need it,
// so lanes whose p differ run one PTX iteration in different SASS instructions:
//   lanes 0-15 p = 4, lanes 16-31 p = 5:  PTX 5 accesses (the fifth for lanes 16-31)
//                                         SASS 4 in the loop's trip (all lanes), 1 in the last loop
//   lane 0 p = 2, lane 1 p = 4:           PTX iterations 0, 1 (both lanes), 2, 3 (lane 1)
//                                         SASS loop trip (lane 1: 0-3), block (lane 0: 0, 1)
// A warp's accesses of such a loop are held until the warp leaves it (an access elsewhere, a
// barrier, the block's end, or a lane starting the loop again), then run as the regions group
// them. When the loop's accesses did not run equally often for a lane (a conditional access),
// or a warp's instance grows past kMaxHeld accesses, they run as the PTX grouped them.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

#include "analysis/merge_assembler.h"
#include "analysis/sass_plan.h"
#include "emu/events.h"

namespace warpscope::analysis {

class LoopRegroup {
 public:
  explicit LoopRegroup(MergeAssembler::Sink& sink) : sink_(sink) {}

  // An access of unrolled loop `loop` (`regions`, the plan's): held.
  void add(const emu::AccessEvent& e, int loop, const UnrolledLoop& regions);
  // Any other access of the warp: what it held runs first.
  void touch(const emu::AccessEvent& e) {
    if (!held_.empty()) flush(key(e.block_index, e.warp));
  }
  void end_round(std::uint64_t block_index, int warp) {
    if (!held_.empty()) flush(key(block_index, warp));
  }
  void end_block(std::uint64_t block_index);

  std::uint64_t regrouped() const { return regrouped_; }  // loop instances run by regions

 private:
  struct Member {
    std::uint32_t pc = 0;
    emu::AccessEvent first;                      // the template of what runs
    std::array<std::vector<std::uint64_t>, 32> addresses;  // per lane, iteration order
    std::array<std::uint8_t, 32> state{};        // per lane: 0 not yet, 1 running, 2 left
  };
  struct Held {
    int loop = -1;
    const UnrolledLoop* regions = nullptr;
    std::vector<Member> members;                 // by pc
    // What came, in order: (pc, lanes); with the members' addresses, the events as they came
    // (run as is when the counts differ).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> order;
    // Past kMaxHeld accesses, what was held ran as it came and the rest of the instance runs
    // as it comes (the PTX's grouping): a warp's held loop stays near a megabyte.
    bool passthrough = false;
  };
  static constexpr std::size_t kMaxHeld = 1u << 12;

  static std::uint64_t key(std::uint64_t block_index, int warp) { return block_index << 8 | static_cast<std::uint64_t>(warp); }
  void flush(std::uint64_t k);
  void run(Held& h);
  void run_as_came(Held& h);
  // Trip j of shaped region r (UnrollRegion::shape) as its SASS accesses; false when some
  // lane's PTX accesses do not fit the shape (then they run as they are).
  bool run_shaped(const Held& h, const UnrollRegion& region, const std::array<std::vector<int>, 32>& trips,
                  const std::array<int, 32>& base, int r, int j);

  MergeAssembler::Sink& sink_;
  std::unordered_map<std::uint64_t, Held> held_;
  std::uint64_t regrouped_ = 0;
};

// Per lane with `p` iterations: how many trips of each region it runs (sass_plan.h's rules).
std::vector<int> region_trips(const UnrolledLoop& loop, int p);

// Where a shaped trip's SASS accesses (offset from the first, width) start relative to the
// lowest of its PTX accesses (address, width): every PTX access inside one of them, each of them
// holding one and aligned to its width; nullopt when no placement does.
std::optional<std::int64_t> place_shape(const std::vector<std::pair<std::int64_t, int>>& shape,
                                        const std::vector<std::pair<std::uint64_t, int>>& elements);

}  // namespace warpscope::analysis
