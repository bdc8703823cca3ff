// layout_search.h: for one shared array, re-price every recorded access under each layout
// candidate and rank the candidates.
//
//   tile (4096 B, 4-byte elements): as declared 270336 wavefronts (ideal 16384)
//     1. Swizzle<5,2,5>            16384 wavefronts   +0 B     index arithmetic 2
//     2. skew (c + r) % 32 ...     16384              +0 B                      3
//     3. pad +4 B per 128 B row    16384              +128 B                    1
//
// Ranking: total wavefronts of the array's accesses (loads and stores) first, then extra
// shared bytes (they can cost occupancy, see occupancy.h), then index arithmetic:
//   identity 0; padding 1 (a 2-D pitch is a constant and costs nothing, a 1-D index gains a
//   shift and an add); swizzle 2 (shift, and, xor); skew 3 (add and a modulo, and it splits
//   row-wise vector accesses).
// So no layout is cheaper than the declared one, and a swizzle beats a padding of equal
// wavefronts because it needs no extra bytes.
//
// Candidates, for an array of `size` bytes whose smallest access is `elem` bytes:
//   rows      every pitch R of whole elements, max(32, 2 * elem) <= R <= min(1024, size / 2),
//             R | size, powers of two or not (tile[24][24]: 96 B); the access strides are not
//             needed: every plausible pitch is tried
//             (swizzles need no row: each is kept only where it is a bijection on the array,
//             size a multiple of 2^(M+B), which holds for 24x24 floats up to M + B = 8)
//   padding   each R, + p elements, p = 1..8 with p * elem <= 128
//   swizzle   every Swizzle<B,M,S> on bytes with M >= log2(elem), M + B <= 7 (the XOR lands
//             in the bank bits), S >= B, that fits the array (layout::swizzle_fits);
//             this includes the TMA 32/64/128-byte modes and 1-D index swizzles
//   skew      each R with at least 2 elements per row
// A candidate that splits a wide access (8-byte lanes over a 4-byte padding) is dropped.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/shared_access_recorder.h"
#include "emu/events.h"
#include "layout/layout.h"
#include "model/arch.h"

namespace warpscope::analysis {

struct LayoutCandidate {
  layout::Layout layout;
  std::uint64_t wavefronts = 0;   // all recorded accesses of the array, re-priced
  std::uint64_t extra_bytes = 0;  // shared bytes beyond the declared size
  int arithmetic = 0;             // index arithmetic cost (see above)
};

struct ArraySearch {
  std::uint64_t elem_bytes = 0;
  std::uint64_t before = 0;  // wavefronts as declared (same accesses, no layout)
  std::uint64_t ideal = 0;
  std::size_t candidates = 0;      // layouts tried
  std::vector<LayoutCandidate> best;  // ranked, at most `keep`, two per kind; only those better than before
  std::size_t over_limit = 0;      // candidates left out: past the block's shared-memory limit
  std::size_t too_small = 0;       // candidates left out: saving less than the minimum gain
};

// The smallest bytes any recorded access moves per lane (ldmatrix: 16): the element size.
std::uint64_t element_bytes(const std::vector<RecordedAccess>& accesses);

// Every candidate layout for an array of `size` bytes and `elem`-byte elements. With
// `hardware_only` (a tile TMA writes or wgmma reads through a descriptor), only the swizzle
// modes the hardware applies itself: Swizzle<1,4,3>, <2,4,3>, <3,4,3> (TMA 32B, 64B, 128B); a
// padding or skew would break the TMA box or the descriptor's layout.
std::vector<layout::Layout> candidate_layouts(std::uint64_t size, std::uint64_t elem, bool hardware_only = false);

int arithmetic_cost(const layout::Layout& layout);

// Total wavefronts of `accesses` with `region`'s addresses moved by `layout`, or nothing when
// the layout would split or misalign an access.
std::optional<std::uint64_t> price_under(const model::Arch& arch, const emu::Region& region,
                                         const std::vector<RecordedAccess>& accesses, const layout::Layout& layout,
                                         std::uint64_t elem_bytes, std::uint64_t* ideal = nullptr);

// What a layout may cost and must gain to be offered.
struct SearchLimits {
  std::size_t keep = 5;  // candidates reported
  // Shared bytes a layout may add: the block's limit (sm_90: 232,448 bytes) less what the
  // kernel already uses; a layout past it could not launch.
  std::uint64_t max_extra_bytes = ~std::uint64_t{0};
  // The least a layout must save, as a fraction of the array's wavefronts as declared
  // (--min-gain, default 1%): saving 2 of 4,221 wavefronts is not worth a rewrite.
  double min_gain = 0.01;
  // The array is laid out by the hardware (TMA writes it, wgmma reads it): its swizzle modes only.
  bool hardware_only = false;
};

ArraySearch search_layouts(const model::Arch& arch, const emu::Region& region,
                           const std::vector<RecordedAccess>& accesses, const SearchLimits& limits = {});

// The wavefronts a change must save out of `before` to be offered: min_gain of them, at least 1.
std::uint64_t required_gain(std::uint64_t before, double min_gain);

}  // namespace warpscope::analysis
