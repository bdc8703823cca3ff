// tensor_box.h: where a TMA box's elements live, in global memory and in shared memory.
//
// A box of a rank-r tensor map at coordinates c (innermost first) holds n_i =
// ceil(box_i / elemstride_i) elements along dimension i (dimension 0 is dense:
// n_0 = box_0), at tensor coordinates c_i + k_i * elemstride_i. In shared memory the box
// is packed, dimension 0 fastest: box row (k_1, ..., k_{r-1}) is row number
// k_1 + n_1 * (k_2 + n_2 * (...)), at byte row * n_0 * element_size. Then the swizzle
// moves each 16-byte chunk within its span, by the shared address's own bits
// (CuTe's Swizzle<B,4,3> on byte addresses):
//
//   32B   Swizzle<1,4,3>  address bit 4     ^= bit 7        (repeats every 256 bytes)
//   64B   Swizzle<2,4,3>  address bits 4..5 ^= bits 7..8    (every 512 bytes)
//   128B  Swizzle<3,4,3>  address bits 4..6 ^= bits 7..9    (every 1024 bytes)
//
//   0bxxxxxxYYYxZZZxxxx  ->  ZZZ ^= YYY   (128B: YYY = bits 9..7, ZZZ = bits 6..4)
//
// Elements outside the tensor (a coordinate below 0 or at/after the dimension's size)
// are not read; loads fill them with zeros (or the map's NaN), stores skip them.
#pragma once

#include <cstdint>
#include <vector>

#include "emu/tensor_map_spec.h"

namespace warpscope::emu {

// A shared byte address after the swizzle (an involution: applying it twice is the identity).
inline std::uint32_t swizzle_address(std::uint32_t address, tmap::Swizzle s) {
  const std::uint32_t mask = s == tmap::Swizzle::B32 ? 1u : s == tmap::Swizzle::B64 ? 3u : s == tmap::Swizzle::B128 ? 7u : 0u;
  return address ^ (((address >> 7) & mask) << 4);
}

// The box's shape: elements per dimension and bytes.
struct BoxShape {
  int rank = 1;
  std::uint32_t n[tmap::kMaxRank] = {1, 1, 1, 1, 1};
  std::uint32_t element_bytes = 1;
  std::uint32_t row_bytes = 0;  // n_0 * element_bytes
  std::uint64_t rows = 0;       // n_1 * ... * n_{r-1}
  std::uint64_t bytes() const { return rows * row_bytes; }
};
BoxShape box_shape(const tmap::TensorMapFields& map);

// One box row: its elements [lo, hi) are inside the tensor (lo == hi: none are), the
// first of them at global address `global`.
struct BoxRow {
  std::uint64_t index = 0;  // row number in shared memory
  std::uint32_t lo = 0, hi = 0;
  std::uint64_t global = 0;
};

// The box's rows at coordinates `coords` (map.rank of them), in shared-memory order.
std::vector<BoxRow> box_rows(const tmap::TensorMapFields& map, const BoxShape& shape, const std::int32_t* coords);

// 32-byte sectors the in-bounds bytes of the rows touch, each row counted alone; and
// the fewest that could hold them (each row's bytes / 32, rounded up).
std::uint64_t box_sectors(const std::vector<BoxRow>& rows, std::uint32_t element_bytes);
std::uint64_t box_ideal_sectors(const std::vector<BoxRow>& rows, std::uint32_t element_bytes);

// What a TMA load reads of a box (xbar2l1tex sectors): each row's in-bounds sectors as above,
// and its out-of-bounds bytes in 32-byte sectors as if dense, rows wholly outside the tensor too
// (H200, corpus/hopper tma_past_*: boxes past the far end in x, in y, in both, and a box wholly
// below the tensor, all equal to this; stores write only the in-bounds bytes).
std::uint64_t box_load_sectors(const std::vector<BoxRow>& rows, const BoxShape& shape);

// The fill value's bytes of one element (zeros, or the type's canonical NaN).
std::uint64_t fill_pattern(const tmap::TensorMapFields& map);

}  // namespace warpscope::emu
