// wmma_plan.h: the memory instructions ptxas makes of a wmma.load or wmma.store on sm_90,
// which are what ncu counts. Internal to the emulator.
//
// The fragment's matrix is a tile in memory: "memory rows" are its strided dimension (rows
// of a row-major matrix), "memory columns" its contiguous one. Read from ptxas 13's SASS:
//
//   fragment                        space    SASS per wmma.load (m16n16k16; other shapes alike)
//   A/B f16, bf16                   .shared  LDSM.16.M88.4 over 8x8 blocks (MT88: the other layout);
//                                             up to 4 blocks an instruction (m32n8 A: 2 x .4, m8n32 A: .2)
//   A row / B col s8, u8            .shared  LDSM.16.M88.2 (16 rows x 16 bytes; .x1 for 8 rows)
//   A col / B row s8, u8            .shared  LDS.U8, one per element (8 for m16n16k16)
//   C/D f16; A/B f16, bf16 not in   any      one 32-bit access per 8x8 block, lane (g, 2q) along the
//   LDSM (global, generic)                    contiguous dimension (ptxas transposes in registers, MOVM:
//                                             A col global: 4 x LDG.E + MOVM)
//   everything else                 any      per element run: consecutive fragment elements adjacent
//                                             in memory merge (f32 C row: LDS.64 x 4; col: LDS x 8;
//                                             f64 C row: LD.128; tf32 A: LD x 4; bf16 A: LD x 4)
//
// (g = lane / 4, q = lane % 4.) Generic addresses (nvcc emits wmma.load of bf16, tf32 and
// f64 without a state space) become LD/ST, shared or global per lane.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "emu/mma_fragments.h"

namespace warpscope::emu {

struct WmmaAccess {
  bool ldmatrix = false;  // LDSM: `width` matrices, lanes 8j..8j+7 give matrix j's row addresses
  bool trans = false;     // LDSM .MT88
  int width = 0;          // bytes per lane (ldmatrix: matrices)
  std::uint32_t mask = 0;
  std::array<FragmentLayout::Coord, 32> at{};  // each lane's first element, memory (row, col)
  int lane_bytes() const { return ldmatrix ? 16 : width; }
};

struct WmmaPlan {
  int mem_rows = 0, mem_cols = 0;  // the tile, in memory coordinates
  int element_bytes = 0;
  std::vector<WmmaAccess> accesses;
};

// `f` is the fragment's layout (A, B, or C/D), `row_major` its memory layout, `shared` an
// explicit .shared state space. Every element of the tile is covered exactly once.
WmmaPlan plan_wmma(const FragmentLayout& f, MatrixOperand which, bool row_major, bool shared);

}  // namespace warpscope::emu
