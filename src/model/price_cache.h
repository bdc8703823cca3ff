// price_cache.h: remembers the last access priced for one instruction, so the warps of a
// kernel that repeat an address pattern at another base cost one comparison, not a pricing.
//
// Bank conflicts, sectors and lines are the same for every shift of all 32 addresses by a
// multiple of 128 bytes (banks repeat every 128, sectors every 32, lines every 128), so
// the key is the mask, the op and width, the first active lane's address modulo 128, and
// every active lane's offset from that lane.
//
//   warp 0: s[tx*32 + 0] ...   priced: 32 wavefronts
//   warp 1: s[tx*32 + 256] ... same offsets, base + 256: cached, 32 wavefronts
#pragma once

#include <array>
#include <cstdint>

#include "model/access_cost.h"

namespace warpscope::model {

class PriceCache {
 public:
  // The cost of a valid access (see price_valid), from the cache when the pattern repeats.
  const AccessCost& price(const Arch& arch, const WarpAccess& access);

  std::uint64_t hits() const { return hits_; }
  std::uint64_t misses() const { return misses_; }

 private:
  bool valid_ = false;
  MemOp op_ = MemOp::SharedLoad;
  int width_ = 0;
  std::uint32_t mask_ = 0;
  std::uint64_t phase_ = 0;
  std::array<std::uint64_t, kWarpSize> offsets_{};
  AccessCost cost_{};
  std::uint64_t hits_ = 0;
  std::uint64_t misses_ = 0;
};

}  // namespace warpscope::model
