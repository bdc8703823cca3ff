// shared_cost.h: wavefronts and bank conflicts of one warp's shared-memory instruction.
//
// A worked example, `float s[]` read at s[lane*2] (lds, 4 bytes):
//   lane  0 -> byte   0 -> word  0 -> bank  0
//   lane 16 -> byte 128 -> word 32 -> bank  0     two distinct words in bank 0:
//   wavefronts 2, ideal 1, bank conflicts 1 (ncu's count: wavefronts beyond the ideal).
#pragma once

#include <cstdint>

#include "model/arch.h"
#include "model/warp_access.h"

namespace warpscope::model {

struct SharedCost {
  int wavefronts = 0;
  int ideal_wavefronts = 0;  // the fewest this instruction could take: its distinct bytes / 128, per lane group
  int groups = 0;            // lane groups the hardware scheduled separately (see arch.h)
  int group_lanes = 0;       // lanes per group for this access (paired wide loads: doubled)
  int worst_bank = -1;       // the bank with the most distinct words (or lanes, for atomics) in one group
  int worst_degree = 0;      // ... and how many: the conflict degree (1 = conflict-free)
  int worst_group = -1;      // the lane group it happened in
  std::uint32_t colliding_lanes = 0;  // lanes of that group touching the worst bank (none without a conflict,
                                      // except for atomics, where every lane in the bank counts)

  int bank_conflicts() const { return wavefronts - ideal_wavefronts; }
};

// Prices a validated shared-memory access (lds, sts, ldsm, atoms, atoms_agg) into `cost`
// (a default-constructed SharedCost).
void price_shared(const Arch& arch, const WarpAccess& access, SharedCost& cost);
inline SharedCost price_shared(const Arch& arch, const WarpAccess& access) {
  SharedCost cost;
  price_shared(arch, access, cost);
  return cost;
}

}  // namespace warpscope::model
