// arch.h: the per-architecture table of memory-pipeline rules the cost model reads.
//
// Every rule the model applies is a number here, so adding an architecture is adding a
// row whose numbers were measured on that GPU (calib/ measures them).
//
// Shared memory is served in "lane groups": the warp's lanes are split by lane index
// into groups of `group_lanes` consecutive lanes; each group is scheduled on its own, and
// a group needs as many wavefronts as its busiest bank has distinct 4-byte words (loads,
// stores, aggregated atomics) or lanes (value-returning atomics).
//
//   width (bytes)              1   2   4   8  16
//   sm_90 load_group_lanes    32  32  32  16   8     (the textbook phases)
//   sm_90 store_group_lanes   32  32  32  16   8
//   sm_90 paired_load_lanes   32  32  32  32  16
//
// Paired loads: when lanes pair up, every active lane reading the same address as its
// partner lane (L xor 1 for all lanes, or L xor 2 for all lanes; an inactive partner
// does not count), a wide load is served in groups twice as large. Stores never pair.
// (Measured: calib/, bench/results/h200/calibration/; L xor 3 does not pair.)
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "support/expected.h"

namespace warpscope::model {

inline constexpr int kWarpSize = 32;

// Index into per-width tables: 1->0, 2->1, 4->2, 8->3, 16->4; -1 if not a supported width.
// (Inline: the cost model asks on every access.)
constexpr int width_index(int width_bytes) {
  switch (width_bytes) {
    case 1: return 0;
    case 2: return 1;
    case 4: return 2;
    case 8: return 3;
    case 16: return 4;
    default: return -1;
  }
}

struct Arch {
  std::string name;         // "sm_90"
  std::string description;  // "Hopper (H100, H200)"
  int banks = 32;
  int bank_bytes = 4;
  int wavefront_bytes = 128;  // bytes one shared-memory wavefront can deliver (a power of two, as bank_bytes)
  // Lanes scheduled together, per access width (see the header comment).
  std::array<int, 5> load_group_lanes{};
  std::array<int, 5> store_group_lanes{};
  std::array<int, 5> paired_load_group_lanes{};
  std::vector<int> load_pair_partners;  // lane xor masks that pair lanes (sm_90: 1, 2)
  int ldmatrix_group_lanes = 8;      // one 8x8 matrix: 8 row addresses
  int atomic_group_lanes = 32;       // 4-byte shared atomics
  // 8-byte shared atomics (ATOMS.CAS.64, .EXCH.64, the CAST.64 of a 64-bit CAS loop): served
  // in half-warps like 8-byte loads, lanes per bank counted as for 4-byte ones. Not yet
  // measured: corpus/sass/atomics_shared.cu asks the H200.
  int atomic64_group_lanes = 16;
  int sector_bytes = 32;             // global memory
  int line_bytes = 128;
  // Shared memory capacity rules, used by occupancy (bytes).
  int max_shared_per_sm = 0;
  int max_shared_per_block = 0;
  int shared_reserved_per_block = 0;
  int shared_alloc_granularity = 0;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 0;
  int registers_per_block = 0;
  int max_registers_per_thread = 0;
  int register_alloc_unit = 0;      // registers per warp are rounded up to this
  int register_sub_partitions = 0;  // the register file is split this many ways; a warp lives in one
  std::vector<int> shared_carveouts_kib;  // the carveout sizes the driver can pick
};

// The known architectures, by name ("sm_90"); an error lists the known names.
Expected<const Arch*> find_arch(std::string_view name);
const std::vector<Arch>& known_archs();

}  // namespace warpscope::model
