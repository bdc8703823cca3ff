// mma_fragments.h: where each element of a warp's matrix fragment lives: lane l's element
// e is entry (row, col) of the operand's matrix (A: m x k, B: k x n, C and D: m x n).
// Internal to the emulator.
//
//   mma.m16n8k16 .f16 A (PTX ISA "Matrix Fragments for mma.m16n8k16"), g = lane/4, q = lane%4:
//     e:    0       1         2        3         4        5          6          7
//     row:  g       g         g+8      g+8       g        g          g+8        g+8
//     col:  2q      2q+1      2q       2q+1      2q+8     2q+9       2q+8       2q+9
//   packed two to a .b32 register, element 0 in the low half.
//
// wmma fragments are opaque in PTX; ours follow how ptxas runs wmma on sm_80 and later,
// as tiles of mma operands (m16n16k16 = two m16n8k16, m8n32k16 computed transposed as
// D^T = B^T A^T), so that loads, stores and products agree with each other. f16 A and B
// fragments have 8 registers in PTX whatever they hold: elements beyond the real ones
// repeat them (see FragmentLayout::registers).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ptx/tensor_info.h"
#include "support/expected.h"

namespace warpscope::emu {

enum class MatrixOperand : std::uint8_t { A, B, C };

struct FragmentLayout {
  int rows = 0, cols = 0;  // the operand matrix
  int elements = 0;        // distinct elements per lane
  int bits = 0;            // per element
  struct Coord {
    std::uint8_t row = 0, col = 0;
  };
  std::vector<Coord> coord;  // [lane * elements + e]
  std::vector<std::uint16_t> flat;  // the same as row * cols + col (filled by finish())

  void finish() {
    flat.resize(coord.size());
    for (std::size_t i = 0; i < coord.size(); ++i) flat[i] = static_cast<std::uint16_t>(coord[i].row * cols + coord[i].col);
  }

  // Registers holding `elements`: 32-bit registers of 32/bits elements, or one f64 each.
  int registers() const { return bits == 64 ? elements : (elements * bits + 31) / 32; }
  int per_register() const { return bits == 64 ? 1 : 32 / bits; }
  const Coord& at(int lane, int e) const { return coord[static_cast<std::size_t>(lane * elements + e)]; }
};

// The mma.sync layout of operand `which` (types: d, a, b, c as written). m8n8k4 .f16 runs
// four independent 8x8x4 products (one per quad pair): its layout stacks them, A as 32x4,
// B as 4x32 and C as 32x32 whose diagonal 8x8 blocks are the four results.
Expected<FragmentLayout> mma_layout(const ptx::TensorInfo& t, MatrixOperand which);

// The wmma layout of a fragment of shape m x n x k and element type `type` (for A and B,
// the input type; for C/D, the accumulator type).
Expected<FragmentLayout> wmma_layout(int m, int n, int k, ptx::TensorType type, MatrixOperand which);

// "m16n8k16" for messages.
std::string shape_name(int m, int n, int k);

}  // namespace warpscope::emu
