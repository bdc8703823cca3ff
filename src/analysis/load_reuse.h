// load_reuse.h: loads whose value ptxas kept in a register across the iterations of a loop
// it unrolled (so the later ones never run).
//
//   for (s = 0; s < 4; ++s) for (j = -8; j <= 8; ++j) sum += tile[y][s*16 + x + 8 + j];
//   PTX: one rolled loop of 17 ld.shared.f32 (4 iterations: 68 loads per thread)
//   SASS: 65 LDS at distinct offsets: iteration s+1's j = -8 is iteration s's j = +8
//
// A load of such a group (sass_plan.h: InstructionPlan::reuse) runs only when the warp has not
// loaded the same addresses with the same lanes for that group since its last barrier or store
// to that space. `slots` (the group's SASS loads) bounds what ptxas can keep: once a warp has
// loaded that many distinct addresses for the group it starts over (a loop unrolled only so far).
// A load ptxas hoisted out of a loop (`subset`) is held for its lanes: a later run for some of
// those lanes at the same addresses (a loop whose lanes leave one by one) is held too.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "emu/events.h"

namespace warpscope::analysis {

class LoadReuse {
 public:
  // True when `e` reads what the warp already holds for `group`; otherwise remembers it.
  bool reused(const emu::AccessEvent& e, int group, int slots, bool subset = false);
  // A store or atomic of the warp: it forgets its loads of that space (ptxas cannot keep them).
  void store(const emu::AccessEvent& e);
  void end_round(std::uint64_t block_index, int warp);
  void end_block(std::uint64_t block_index);

 private:
  struct Held {
    int group = 0;
    bool shared = false;
    std::uint64_t hash = 0;  // of the lanes, width and addresses
    // subset: the lanes, width and addresses themselves
    std::uint32_t mask = 0;
    int width = 0;
    std::vector<std::uint64_t> addresses;
  };
  static std::uint64_t key(std::uint64_t block_index, int warp) { return block_index << 8 | static_cast<std::uint64_t>(warp); }
  std::unordered_map<std::uint64_t, std::vector<Held>> by_warp_;
};

}  // namespace warpscope::analysis
