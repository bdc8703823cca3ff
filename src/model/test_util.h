// test_util.h: building warp accesses in tests.
#pragma once

#include <functional>

#include "model/access_cost.h"

namespace warpscope::model::testing {

inline const Arch& sm90() { return **find_arch("sm_90"); }

// Whether this CPU runs the AVX2 code (tests of it skip elsewhere).
inline bool has_avx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi2");
}

// An access whose lane L reads `address(L)`.
inline WarpAccess make_access(MemOp op, int width, const std::function<std::uint64_t(int)>& address,
                              std::uint32_t mask = 0xffffffffu) {
  WarpAccess a;
  a.op = op;
  a.width = width;
  a.mask = mask;
  for (int lane = 0; lane < kWarpSize; ++lane) a.address[lane] = address(lane);
  return a;
}

inline SharedCost shared_of(const WarpAccess& a) {
  auto c = price(sm90(), a);
  return c.ok() && c->shared ? *c->shared : SharedCost{};
}

inline GlobalCost global_of(const WarpAccess& a) {
  auto c = price(sm90(), a);
  return c.ok() && c->global ? *c->global : GlobalCost{};
}

}  // namespace warpscope::model::testing
