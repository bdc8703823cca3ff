// price_cache.cc: the one-entry pattern cache.
#include "model/price_cache.h"

namespace warpscope::model {

const AccessCost& PriceCache::price(const Arch& arch, const WarpAccess& a) {
  if (a.mask == 0) {
    cost_ = price_valid(arch, a);
    valid_ = false;
    return cost_;
  }
  const std::uint64_t first = a.address[__builtin_ctz(a.mask)];
  const std::uint64_t phase = first % 128;
  bool same = valid_ && a.mask == mask_ && a.width == width_ && a.op == op_ && phase == phase_;
  for (std::uint32_t m = a.mask; m != 0 && same; m &= m - 1) {
    const int lane = __builtin_ctz(m);
    same = a.address[lane] - first == offsets_[lane];
  }
  if (same) {
    ++hits_;
    return cost_;
  }
  ++misses_;
  for (std::uint32_t m = a.mask; m != 0; m &= m - 1) {
    const int lane = __builtin_ctz(m);
    offsets_[lane] = a.address[lane] - first;
  }
  valid_ = true;
  op_ = a.op;
  width_ = a.width;
  mask_ = a.mask;
  phase_ = phase;
  cost_ = price_valid(arch, a);
  return cost_;
}

}  // namespace warpscope::model
