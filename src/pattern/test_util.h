// test_util.h: helpers shared by the pattern tests.
#pragma once

#include <string>

#include "model/arch.h"
#include "pattern/runner.h"

namespace warpscope::pattern::testing {

inline const model::Arch& sm90() { return **model::find_arch("sm_90"); }

inline Expected<PatternReport> analyze_text(const std::string& text, const RunLimits& limits = {}) {
  return analyze(Source("test.ws", text), sm90(), limits);
}

// The first behaviour of the only (or first) statement; the test fails loudly if absent.
inline const Behaviour& only_behaviour(const PatternReport& r) { return r.statements.at(0).behaviours.at(0); }

}  // namespace warpscope::pattern::testing
