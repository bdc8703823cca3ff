// global_cost.h: requests and 32-byte sectors of one warp's global-memory instruction.
//
// `float a[]` read at a[lane*2] (ldg, 4 bytes): lanes touch bytes 0..3, 8..11, ..., 248..251,
//   8 sectors (256 bytes moved) for 128 bytes requested: ideal 4, efficiency 50%, cause stride.
#pragma once

#include <cstdint>
#include <string_view>

#include "model/arch.h"
#include "model/warp_access.h"

namespace warpscope::model {

enum class Coalescing : std::uint8_t {
  Coalesced,     // as few sectors as the requested bytes allow
  Stride,        // a constant stride wider than the access leaves gaps in every sector
  Misalignment,  // contiguous bytes that straddle one more sector than needed
  Scatter,       // irregular addresses
};
std::string_view coalescing_name(Coalescing c);

struct GlobalCost {
  int requests = 0;
  int sectors = 0;        // distinct 32-byte sectors touched
  int lines = 0;          // distinct 128-byte lines touched
  int ideal_sectors = 0;  // as ncu: min(sectors, ceil(active lanes * width / 32))
  // 32 bits: one instruction asks for at most 32 lanes x 16 bytes (and AccessCost stays small,
  // see access_cost.h).
  std::uint32_t bytes_requested = 0;  // distinct bytes the active lanes asked for (efficiency's numerator)
  std::uint32_t bytes_moved = 0;      // sectors * 32
  Coalescing cause = Coalescing::Coalesced;

  int excess_sectors() const { return sectors - ideal_sectors; }
  double efficiency() const {
    return bytes_moved == 0 ? 1.0 : static_cast<double>(bytes_requested) / static_cast<double>(bytes_moved);
  }
};

// Prices a validated global-memory access (ldg, stg, redg) into `cost` (every field).
void price_global(const Arch& arch, const WarpAccess& access, GlobalCost& cost);
inline GlobalCost price_global(const Arch& arch, const WarpAccess& access) {
  GlobalCost cost;
  price_global(arch, access, cost);
  return cost;
}

// The same without SIMD, whatever the CPU (for tests: global_cost_test compares the two).
GlobalCost price_global_portable(const Arch& arch, const WarpAccess& access);

}  // namespace warpscope::model
