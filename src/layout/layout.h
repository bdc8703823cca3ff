// layout.h: shared-memory layout candidates as small runtime values: each maps a byte offset
// within one array to the byte offset where that byte lives under the new layout.
//
//   Padding{row 128 B, +4 B}      offset r*128 + c  ->  r*132 + c          (tile[32][33])
//   Swizzle{B 5, M 2, S 5}        see the bit diagram below                (tile[r][c ^ r])
//   Skew{row 128 B, elem 4 B}     element (r, c)   ->  (r, (c + r) % 32)
//
// Swizzle<B,M,S> is CuTe's: XOR the B bits found S places above bit M into the B bits at M.
// On byte offsets, Swizzle<3,4,3> (the TMA 128-byte mode, and ldmatrix tiles):
//
//   bit   9 8 7 6 5 4 3 2 1 0
//         Y Y Y Z Z Z x x x x      ZZZ ^= YYY:  the 16-byte chunk (bits 4..6) of a 128-byte
//         \___/ \___/              row is XORed with the row index mod 8 (bits 7..9)
//          src   dst
//
// The TMA swizzle modes are Swizzle<1,4,3> (32 B), <2,4,3> (64 B) and <3,4,3> (128 B) on
// byte addresses. A swizzle on element offsets of 2^m-byte elements is the byte swizzle with
// M + m. Only the bits at M change, so a swizzle is a bijection on [0, size) whenever size is
// a multiple of 2^(M+B) (swizzle_fits), and bytes inside a 2^M-byte chunk stay together.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

namespace warpscope::layout {

// The array as declared: what the kernel wrote.
struct Identity {};

// Each row of `row_bytes` gets `pad_bytes` more: a 2-D array's pitch grows by whole elements
// (float tile[32][32] -> tile[32][33] is {128, 4}); a 1-D array's index i becomes
// i + i / (row elements) * pad.
struct Padding {
  std::uint64_t row_bytes = 0;
  std::uint64_t pad_bytes = 0;
};

// CuTe Swizzle<B,M,S> on byte offsets (see the diagram above). S >= B keeps the source bits
// clear of the destination bits, which makes the map its own inverse.
struct Swizzle {
  int bits = 0;   // B
  int base = 0;   // M
  int shift = 0;  // S
};

// Element (r, c) of rows of `row_bytes` moves to column (c + r) % (row_bytes / elem_bytes).
struct Skew {
  std::uint64_t row_bytes = 0;
  std::uint64_t elem_bytes = 0;
};

using Layout = std::variant<Identity, Padding, Swizzle, Skew>;

// Where byte `offset` of the array lives under `layout`.
std::uint64_t apply(const Layout& layout, std::uint64_t offset);

// Bytes the array occupies under `layout` when it held `size` bytes as declared.
std::uint64_t footprint(const Layout& layout, std::uint64_t size);

// True when a swizzle is a bijection on [0, size) that leaves no source bit outside it.
bool swizzle_fits(const Swizzle& s, std::uint64_t size);

// A short name: "identity", "pad +4 B per 128 B row", "Swizzle<3,4,3> (TMA 128B)", "skew 128 B rows".
std::string describe(const Layout& layout);

// The TMA swizzle mode a byte swizzle equals ("CU_TENSOR_MAP_SWIZZLE_128B"), or "".
std::string tma_mode(const Swizzle& s);

}  // namespace warpscope::layout
