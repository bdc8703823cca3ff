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

// What an atomic or reduction (ATOMG, ATOM, RED) sends from L1 to L2: lanes on one address are
// served one after another, so the instruction runs in passes (pass k takes the addresses that
// more than k lanes use), and each pass sends the sectors its addresses lie in. ncu's kernel
// counter l1tex__t_sectors_pipe_lsu_mem_global_op_atom/_red counts these; the Source page's
// "L2 Theoretical Sectors Global" counts distinct sectors (GlobalCost::sectors).
//   32 lanes on words l % 8 (one sector, 4 lanes a word)  ->  passes 4, sectors 4
//   float4 RED on l % 8 (4 sectors, 4 lanes each)         ->  passes 4, sectors 16
// Measured on the H200 (batch 3): corpus/sass atom_global_forms (RED 58 sectors a warp),
// rw_hist256_global_atomics (64925 for 64919 by this rule), simpleAtomicIntrinsics (one address:
// 32 sectors an ATOMG).
struct AtomicPasses {
  int passes = 0;   // the most lanes on one address
  int sectors = 0;  // summed over the passes
};
AtomicPasses atomic_passes(const Arch& arch, const WarpAccess& access);

// The same without SIMD, whatever the CPU (for tests: global_cost_test compares the two).
GlobalCost price_global_portable(const Arch& arch, const WarpAccess& access);

}  // namespace warpscope::model
