// fusion_plan.h: the names the command line uses for the SASS plan (sass_plan.h), kept while
// src/cli moves to src/driver: a FusionPlan is a SassPlan.
#pragma once

#include "analysis/sass_plan.h"

namespace warpscope::analysis {

using FusionPlan = SassPlan;

inline SassPlan plan_fusions(const ptx::Module& module, const std::vector<sass::SassFunction>& sass) {
  return plan_from_sass(module, sass);
}

inline bool has_merge_candidates(const ptx::Module& module) { return needs_sass(module); }

}  // namespace warpscope::analysis
