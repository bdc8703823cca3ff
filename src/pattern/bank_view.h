// bank_view.h: a warp access laid out lane by lane and bank by bank, for showing.
//
// The figures (wavefronts, conflicts, sectors) come from the cost model; this file only
// arranges the same addresses so a reader can see them. For `s[lane*2]` (4-byte lds):
//
//   lane  address  word  bank           bank     0  1  2  3 ...
//      0        0     0     0           wf  1    0  .  1  . ...    lanes 0..15, words 0..30
//      1        8     2     2           wf  2   16  . 17  . ...    lanes 16..31, words 32..62
//
// A diagram row is one wavefront of one lane group (arch.h): in each bank, the n-th row of
// a group serves that bank's n-th distinct word (value-returning atomics: n-th lane), and
// the cell names the lowest lane reading it; `sharers` > 1 marks a broadcast. The lane
// groups are the largest (32, 16, 8 or 4 lanes; ldmatrix: 8) that give the cost model's
// group count and whose rows add up to its wavefronts, so the picture agrees with the
// figures printed beside it.
#pragma once

#include <cstdint>
#include <vector>

#include "model/access_cost.h"
#include "model/arch.h"
#include "model/warp_access.h"

namespace warpscope::pattern {

struct LaneView {
  int lane = 0;
  bool active = false;
  std::uint64_t address = 0;
  std::uint64_t word = 0;  // address / bank bytes
  int bank = 0;            // first bank touched
  int banks = 1;           // consecutive banks touched (8 bytes: 2, 16 bytes: 4)
  std::uint64_t sector = 0;  // global: address / sector bytes
  std::uint64_t line = 0;    // global: address / line bytes
  bool colliding = false;    // shared: touches the worst bank in the worst group
};

struct DiagramCell {
  int lane = -1;    // -1: the bank is idle in this wavefront
  int sharers = 0;  // lanes reading this word
};

struct BankDiagram {
  std::vector<std::vector<DiagramCell>> rows;  // [wavefront][bank]
  struct Group {
    int first_lane = 0, last_lane = 0;  // lanes of the group
    int first_row = 0, rows = 0;
  };
  std::vector<Group> groups;   // lane groups with an active lane
  std::vector<int> bank_load;  // distinct words (atomics: lanes) per bank, over all groups
};

std::vector<LaneView> lane_views(const model::Arch& arch, const model::WarpAccess& access,
                                 const model::AccessCost& cost);
// Empty for global accesses.
BankDiagram bank_diagram(const model::Arch& arch, const model::WarpAccess& access, const model::AccessCost& cost);

}  // namespace warpscope::pattern
