// fusion_plan.h: which PTX loads and stores ptxas merged into one wider instruction.
//
// ptxas turns neighbouring scalar accesses off one base register into a vector access
// when it can prove the alignment: four `ld.shared.f32 [%r7+0/4/8/12]` become one
// LDS.128 (the tiled GEMM), two become an LDS.64 (the Blelloch scan). ncu counts what
// runs, so the cost listener prices such a group as one access. The SASS says how many
// merges happened per source line; this plan picks which PTX instructions they were:
//
//   gemm_tiled.cu:26  SASS: 8 x LDS.128, 32 x LDS   PTX: 64 x ld.shared.f32
//   -> 8 groups of 4: [%r7+0,4,8,12], [%r7+16,...], ...   (offsets aligned to 16)
#pragma once

#include <unordered_map>
#include <vector>

#include "ptx/ir.h"
#include "sass/sass_listing.h"

namespace warpscope::analysis {

struct FusionRole {
  int group = 0;   // plan-wide group id
  int index = 0;   // position in the group, by address (0 = lowest offset)
  int size = 0;    // instructions in the group
  int width = 0;   // bytes per lane of the merged access
  int anchor = 0;  // the part whose instruction (and source line) the merged access runs at
};

struct FusionPlan {
  std::unordered_map<const ptx::Instruction*, FusionRole> roles;
  int groups = 0;

  const FusionRole* role(const ptx::Instruction* inst) const {
    auto it = roles.find(inst);
    return it == roles.end() ? nullptr : &it->second;
  }
};

// Matches each SASS function to the PTX function of the same name and plans, per source
// line, as many merges of each width as the SASS shows more wide instructions than the PTX.
FusionPlan plan_fusions(const ptx::Module& module, const std::vector<sass::SassFunction>& sass);

// True when some function has two accesses ptxas could merge (same kind, width and base,
// adjacent offsets, the lower aligned to twice the width). When false the SASS cannot
// show a merge, and disassembling (slow: nvdisasm takes most of a second) can be skipped.
bool has_merge_candidates(const ptx::Module& module);

}  // namespace warpscope::analysis
