// runner.h: runs a parsed pattern program through the cost model.
//
// For each access, each iteration of its enclosing loops and each warp of the block, the
// runner evaluates the 32 lanes' index expressions, builds a model::WarpAccess, prices it
// with model::price and groups the results into behaviours (report.h).
#pragma once

#include <string>

#include "model/arch.h"
#include "pattern/ast.h"
#include "pattern/report.h"
#include "pattern/source.h"
#include "support/expected.h"

namespace warpscope::pattern {

struct RunLimits {
  // Warp executions (warps x loop iterations) summed over all accesses; more is an error.
  long long max_warp_executions = 1LL << 20;
};

Expected<PatternReport> run(const Source& source, const Program& program, const model::Arch& arch,
                            const RunLimits& limits = {});

// parse + run.
Expected<PatternReport> analyze(const Source& source, const model::Arch& arch, const RunLimits& limits = {});

}  // namespace warpscope::pattern
