// wmma_plan.cc: the accesses of a wmma.load/store (see the table in wmma_plan.h).
#include "emu/wmma_plan.h"

namespace warpscope::emu {
namespace {

using Coord = FragmentLayout::Coord;

Coord memory_coord(const Coord& c, bool row_major) { return row_major ? c : Coord{c.col, c.row}; }

// 8 memory rows x 16 bytes blocks, LDSM row addresses, `per` blocks an instruction; blocks
// taken 16 rows at a time (one mma operand tile), every column block of them, then the next.
void plan_ldmatrix(WmmaPlan& p, bool trans, int per) {
  const int row_blocks = p.mem_rows / 8, col_blocks = p.mem_cols * p.element_bytes / 16;
  std::vector<Coord> blocks;
  for (int r2 = 0; r2 < row_blocks; r2 += 2)
    for (int cb = 0; cb < col_blocks; ++cb)
      for (int rb = r2; rb < std::min(r2 + 2, row_blocks); ++rb)
        blocks.push_back(Coord{static_cast<std::uint8_t>(8 * rb), static_cast<std::uint8_t>(cb * 16 / p.element_bytes)});
  for (std::size_t i = 0; i < blocks.size(); i += static_cast<std::size_t>(per)) {
    WmmaAccess a;
    a.ldmatrix = true;
    a.trans = trans;
    a.width = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(per), blocks.size() - i));
    if (a.width == 3) a.width = 2;  // never: tiles hold an even number of blocks
    for (int j = 0; j < a.width; ++j)
      for (int r = 0; r < 8; ++r) {
        const Coord& b = blocks[i + static_cast<std::size_t>(j)];
        a.at[static_cast<std::size_t>(8 * j + r)] = Coord{static_cast<std::uint8_t>(b.row + r), b.col};
        a.mask |= 1u << (8 * j + r);
      }
    p.accesses.push_back(a);
  }
}

// 16-bit accumulators: a 32-bit pair per lane per 8x8 block, (g, 2q) within the block.
void plan_pairs(WmmaPlan& p) {
  for (int rb = 0; rb < p.mem_rows / 8; ++rb)
    for (int cb = 0; cb < p.mem_cols / 8; ++cb) {
      WmmaAccess a;
      a.width = 4;
      a.mask = 0xffffffffu;
      for (int l = 0; l < 32; ++l)
        a.at[static_cast<std::size_t>(l)] =
            Coord{static_cast<std::uint8_t>(8 * rb + l / 4), static_cast<std::uint8_t>(8 * cb + 2 * (l % 4))};
      p.accesses.push_back(a);
    }
}

// Runs of consecutive fragment elements that are adjacent in memory, as lane 0 has them
// (every lane's fragment has the same shape), aligned and at most 16 bytes.
void plan_runs(WmmaPlan& p, const FragmentLayout& f, bool row_major) {
  int e = 0;
  while (e < f.elements) {
    const Coord first = memory_coord(f.at(0, e), row_major);
    int len = 1;
    for (;;) {
      const int next = 2 * len;
      if (e + next > f.elements || next * p.element_bytes > 16 || (first.col * p.element_bytes) % (next * p.element_bytes) != 0)
        break;
      bool adjacent = true;
      for (int i = len; i < next && adjacent; ++i) {
        const Coord c = memory_coord(f.at(0, e + i), row_major);
        adjacent = c.row == first.row && c.col == first.col + i;
      }
      if (!adjacent) break;
      len = next;
    }
    WmmaAccess a;
    a.width = len * p.element_bytes;
    a.mask = 0xffffffffu;
    for (int l = 0; l < 32; ++l) a.at[static_cast<std::size_t>(l)] = memory_coord(f.at(l, e), row_major);
    p.accesses.push_back(a);
    e += len;
  }
}

}  // namespace

WmmaPlan plan_wmma(const FragmentLayout& f, MatrixOperand which, bool row_major, bool shared) {
  WmmaPlan p;
  p.element_bytes = f.bits / 8;
  p.mem_rows = row_major ? f.rows : f.cols;
  p.mem_cols = row_major ? f.cols : f.rows;
  const bool natural = (which == MatrixOperand::A) == row_major;  // A row, B col: k contiguous
  if (which != MatrixOperand::C && shared && f.bits == 16 && p.mem_cols * 2 % 16 == 0 && p.mem_rows % 8 == 0) {
    plan_ldmatrix(p, !natural, 4);
  } else if (which != MatrixOperand::C && shared && f.bits == 8 && natural && p.mem_cols == 16 && p.mem_rows % 8 == 0) {
    plan_ldmatrix(p, false, 2);
  } else if (f.bits == 16 && p.mem_rows % 8 == 0 && p.mem_cols % 8 == 0) {
    plan_pairs(p);  // 16-bit fragments outside LDSM: 32-bit pairs along memory, MOVM when transposed
  } else {
    plan_runs(p, f, row_major);
  }
  return p;
}

}  // namespace warpscope::emu
