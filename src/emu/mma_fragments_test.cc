// mma_fragments_test.cc: the fragment tables against the PTX ISA: every element of each
// operand matrix held exactly once, register counts as the ISA lists them, and entries
// read off the ISA's formulas; wmma fragments likewise, and the wmma access plans against
// the SASS ptxas 13 makes for sm_90 (wmma_plan.h's table).
#include "emu/mma_fragments.h"

#include <gtest/gtest.h>

#include <set>

#include "emu/wmma_plan.h"

namespace warpscope::emu {
namespace {

using ptx::TensorType;
using T = TensorType;

ptx::TensorInfo mma(int m, int n, int k, TensorType d, TensorType a, TensorType b, TensorType c,
                    ptx::MatrixLayout la = ptx::MatrixLayout::Row, ptx::MatrixLayout lb = ptx::MatrixLayout::Col) {
  ptx::TensorInfo t;
  t.m = static_cast<std::uint16_t>(m);
  t.n = static_cast<std::uint16_t>(n);
  t.k = static_cast<std::uint16_t>(k);
  t.types = {d, a, b, c};
  t.ntypes = 4;
  t.layout_a = la;
  t.layout_b = lb;
  return t;
}

// Every (row, col) of the matrix is held by exactly one (lane, element); for m8n8k4 .f16's
// stacked C, every entry of the four diagonal 8x8 blocks.
void expect_bijection(const FragmentLayout& f, bool diagonal_blocks = false) {
  std::set<std::pair<int, int>> seen;
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < f.elements; ++e) {
      const auto& c = f.at(lane, e);
      ASSERT_LT(c.row, f.rows);
      ASSERT_LT(c.col, f.cols);
      if (diagonal_blocks) EXPECT_EQ(c.row / 8, c.col / 8) << "lane " << lane << " e " << e;
      EXPECT_TRUE(seen.insert({c.row, c.col}).second) << "lane " << lane << " e " << e << " repeats (" << int(c.row)
                                                       << ", " << int(c.col) << ")";
    }
  EXPECT_EQ(seen.size(), static_cast<std::size_t>(diagonal_blocks ? 4 * 64 : f.rows * f.cols));
}

struct MmaCase {
  ptx::TensorInfo info;
  int a_regs, b_regs, c_regs;  // the PTX ISA's fragment registers
};

std::vector<MmaCase> mma_cases() {
  return {
      {mma(16, 8, 16, T::F32, T::F16, T::F16, T::F32), 4, 2, 4},
      {mma(16, 8, 16, T::F16, T::F16, T::F16, T::F16), 4, 2, 2},
      {mma(16, 8, 16, T::F32, T::BF16, T::BF16, T::F32), 4, 2, 4},
      {mma(16, 8, 8, T::F32, T::F16, T::F16, T::F32), 2, 1, 4},
      {mma(16, 8, 8, T::F32, T::BF16, T::BF16, T::F32), 2, 1, 4},
      {mma(16, 8, 4, T::F32, T::TF32, T::TF32, T::F32), 2, 1, 4},
      {mma(16, 8, 8, T::F32, T::TF32, T::TF32, T::F32), 4, 2, 4},
      {mma(16, 8, 16, T::S32, T::S8, T::S8, T::S32), 2, 1, 4},
      {mma(16, 8, 32, T::S32, T::U8, T::S8, T::S32), 4, 2, 4},
      {mma(16, 8, 32, T::F32, T::E4M3, T::E5M2, T::F32), 4, 2, 4},
      {mma(16, 8, 16, T::F32, T::E4M3, T::E4M3, T::F32), 2, 1, 4},
      {mma(16, 8, 32, T::S32, T::S4, T::S4, T::S32), 2, 1, 4},
      {mma(16, 8, 64, T::S32, T::U4, T::U4, T::S32), 4, 2, 4},
      {mma(8, 8, 16, T::S32, T::S8, T::U8, T::S32), 1, 1, 2},
      {mma(8, 8, 32, T::S32, T::S4, T::S4, T::S32), 1, 1, 2},
      {mma(8, 8, 4, T::F64, T::F64, T::F64, T::F64), 1, 1, 2},
      {mma(16, 8, 4, T::F64, T::F64, T::F64, T::F64), 2, 1, 4},
      {mma(16, 8, 8, T::F64, T::F64, T::F64, T::F64), 4, 2, 4},
      {mma(16, 8, 16, T::F64, T::F64, T::F64, T::F64), 8, 4, 4},
  };
}

TEST(MmaFragments, EveryElementOnceWithTheIsaRegisterCounts) {
  for (const MmaCase& c : mma_cases()) {
    SCOPED_TRACE(shape_name(c.info.m, c.info.n, c.info.k) + "." + std::string(ptx::tensor_type_name(c.info.types[1])));
    auto a = mma_layout(c.info, MatrixOperand::A);
    auto b = mma_layout(c.info, MatrixOperand::B);
    auto cc = mma_layout(c.info, MatrixOperand::C);
    ASSERT_TRUE(a && b && cc);
    EXPECT_EQ(a->rows, c.info.m);
    EXPECT_EQ(a->cols, c.info.k);
    EXPECT_EQ(b->rows, c.info.k);
    EXPECT_EQ(b->cols, c.info.n);
    expect_bijection(*a);
    expect_bijection(*b);
    expect_bijection(*cc);
    EXPECT_EQ(a->registers(), c.a_regs);
    EXPECT_EQ(b->registers(), c.b_regs);
    EXPECT_EQ(cc->registers(), c.c_regs);
  }
}

TEST(MmaFragments, QuadPairProductsOfM8n8k4F16) {
  for (auto la : {ptx::MatrixLayout::Row, ptx::MatrixLayout::Col})
    for (auto lb : {ptx::MatrixLayout::Row, ptx::MatrixLayout::Col})
      for (TensorType c : {T::F16, T::F32}) {
        auto info = mma(8, 8, 4, c, T::F16, T::F16, c, la, lb);
        auto a = mma_layout(info, MatrixOperand::A);
        auto b = mma_layout(info, MatrixOperand::B);
        auto cc = mma_layout(info, MatrixOperand::C);
        ASSERT_TRUE(a && b && cc);
        expect_bijection(*a);
        expect_bijection(*b);
        expect_bijection(*cc, true);
        EXPECT_EQ(a->registers(), 2);
        EXPECT_EQ(cc->registers(), c == T::F16 ? 4 : 8);
        // Lanes 0-3 and 16-19 compute the first product: their A rows are block 0's.
        for (int lane : {0, 3, 16, 19}) EXPECT_EQ(a->at(lane, 0).row / 8, 0);
        for (int lane : {4, 20}) EXPECT_EQ(a->at(lane, 0).row / 8, 1);
      }
  // The ISA's f32 accumulator formula: lane 17, c6: X = (17 & 1) + (6 & 2) = 3, row X + 4,
  // col (6 & 4) + (17 & 2) + (6 & 1) = 4.
  auto c = mma_layout(mma(8, 8, 4, T::F32, T::F16, T::F16, T::F32), MatrixOperand::C);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->at(17, 6).row, 7);
  EXPECT_EQ(c->at(17, 6).col, 4);
}

TEST(MmaFragments, EntriesReadOffTheIsaFormulas) {
  // m16n8k16 .f16 A, lane 6 (group 1, thread 2), a5: row g, col 2*2 + 1 + 8.
  auto a = mma_layout(mma(16, 8, 16, T::F32, T::F16, T::F16, T::F32), MatrixOperand::A);
  EXPECT_EQ(a->at(6, 5).row, 1);
  EXPECT_EQ(a->at(6, 5).col, 13);
  EXPECT_EQ(a->at(6, 2).row, 9);  // a2: row g + 8
  // m16n8k32 .s8 A, lane 9 (group 2, thread 1), a13: row g + 8, col 4 + 1 + 16.
  auto s = mma_layout(mma(16, 8, 32, T::S32, T::S8, T::S8, T::S32), MatrixOperand::A);
  EXPECT_EQ(s->at(9, 13).row, 10);
  EXPECT_EQ(s->at(9, 13).col, 21);
  // m16n8k8 .tf32 A, lane 0, a2: row g, col t + 4; a1: row g + 8.
  auto t = mma_layout(mma(16, 8, 8, T::F32, T::TF32, T::TF32, T::F32), MatrixOperand::A);
  EXPECT_EQ(t->at(0, 2).col, 4);
  EXPECT_EQ(t->at(0, 1).row, 8);
  // m16n8k64 .u4 A, lane 5 (group 1, thread 1), a20: row g (16 <= i < 24), col 8 + 4 + 32.
  auto u = mma_layout(mma(16, 8, 64, T::S32, T::U4, T::U4, T::S32), MatrixOperand::A);
  EXPECT_EQ(u->at(5, 20).row, 1);
  EXPECT_EQ(u->at(5, 20).col, 44);
  // m16n8k16 B, lane 13 (group 3, thread 1), b3: row 2 + 1 + 8, col 3.
  auto b = mma_layout(mma(16, 8, 16, T::F32, T::BF16, T::BF16, T::F32), MatrixOperand::B);
  EXPECT_EQ(b->at(13, 3).row, 11);
  EXPECT_EQ(b->at(13, 3).col, 3);
  // C: lane 31 (group 7, thread 3), c3: row 15, col 7.
  auto c = mma_layout(mma(16, 8, 16, T::F32, T::F16, T::F16, T::F32), MatrixOperand::C);
  EXPECT_EQ(c->at(31, 3).row, 15);
  EXPECT_EQ(c->at(31, 3).col, 7);
}

TEST(MmaFragments, UnknownShapesAreErrorsThatNameThem) {
  auto bad = mma_layout(mma(16, 8, 12, T::F32, T::F16, T::F16, T::F32), MatrixOperand::A);
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("m16n8k12"), std::string::npos);
  EXPECT_FALSE(wmma_layout(16, 16, 16, T::S4, MatrixOperand::A));
}

struct WmmaCase {
  int m, n, k;
  TensorType type;
  int a_regs, b_regs;  // registers PTX gives the fragments (f16: always 8)
};

TEST(WmmaFragments, EveryElementOnce) {
  const std::vector<WmmaCase> cases = {
      {16, 16, 16, T::F16, 4, 4},  {32, 8, 16, T::F16, 8, 2},  {8, 32, 16, T::F16, 2, 8},
      {16, 16, 16, T::BF16, 4, 4}, {32, 8, 16, T::BF16, 8, 2}, {8, 32, 16, T::BF16, 2, 8},
      {16, 16, 8, T::TF32, 4, 4},  {16, 16, 16, T::U8, 2, 2},  {32, 8, 16, T::S8, 4, 1},
      {8, 32, 16, T::U8, 1, 4},    {8, 8, 4, T::F64, 1, 1},
  };
  for (const WmmaCase& c : cases) {
    SCOPED_TRACE(shape_name(c.m, c.n, c.k) + "." + std::string(ptx::tensor_type_name(c.type)));
    auto a = wmma_layout(c.m, c.n, c.k, c.type, MatrixOperand::A);
    auto b = wmma_layout(c.m, c.n, c.k, c.type, MatrixOperand::B);
    ASSERT_TRUE(a && b);
    expect_bijection(*a);
    expect_bijection(*b);
    EXPECT_EQ(a->registers(), c.a_regs);
    EXPECT_EQ(b->registers(), c.b_regs);
    for (TensorType acc : {T::F32, T::F16, T::S32, T::F64}) {
      if ((acc == T::F64) != (c.type == T::F64)) continue;
      auto cc = wmma_layout(c.m, c.n, c.k, acc, MatrixOperand::C);
      ASSERT_TRUE(cc);
      expect_bijection(*cc);
    }
  }
}

// What ptxas 13 emitted for sm_90 (nvdisasm of nvcc -arch=sm_90 kernels, one wmma.load or
// store each): the instruction and how many of them.
struct PlanCase {
  int m, n, k;
  TensorType type;
  MatrixOperand which;
  bool row_major, shared;
  bool ldmatrix, trans;
  int width;  // bytes per lane, or matrices
  int count;
};

TEST(WmmaPlan, TheInstructionsPtxasMakes) {
  using M = MatrixOperand;
  const std::vector<PlanCase> cases = {
      {16, 16, 16, T::F16, M::A, true, true, true, false, 4, 1},    // LDSM.16.M88.4
      {16, 16, 16, T::F16, M::A, false, true, true, true, 4, 1},    // LDSM.16.MT88.4
      {16, 16, 16, T::F16, M::B, false, true, true, false, 4, 1},   // b col: M88.4
      {16, 16, 16, T::F16, M::B, true, true, true, true, 4, 1},     // b row: MT88.4
      {32, 8, 16, T::F16, M::A, true, true, true, false, 4, 2},     // 2 x M88.4
      {32, 8, 16, T::F16, M::B, false, true, true, false, 2, 1},    // M88.2
      {8, 32, 16, T::F16, M::A, true, true, true, false, 2, 1},     // M88.2
      {8, 32, 16, T::F16, M::B, true, true, true, true, 4, 2},      // 2 x MT88.4
      {16, 16, 16, T::U8, M::A, true, true, true, false, 2, 1},     // M88.2
      {32, 8, 16, T::U8, M::A, true, true, true, false, 2, 2},      // 2 x M88.2
      {32, 8, 16, T::U8, M::B, false, true, true, false, 1, 1},     // M88 (x1)
      {8, 32, 16, T::U8, M::B, false, true, true, false, 2, 2},     // 2 x M88.2
      {16, 16, 16, T::U8, M::A, false, true, false, false, 1, 8},   // 8 x LDS.U8
      {8, 32, 16, T::U8, M::B, true, true, false, false, 1, 16},    // 16 x LDS.U8
      {16, 16, 16, T::F16, M::A, true, false, false, false, 4, 4},  // global: 4 x LDG.E
      {16, 16, 16, T::F16, M::A, false, false, false, false, 4, 4}, // global col: 4 x LDG.E + MOVM
      {16, 16, 16, T::U8, M::B, true, false, false, false, 1, 8},   // global row: 8 x LDG.E.U8
      {16, 16, 16, T::BF16, M::A, true, false, false, false, 4, 4}, // generic: 4 x LD.E
      {16, 16, 8, T::TF32, M::A, true, false, false, false, 4, 4},  // 4 x LD.E
      {8, 8, 4, T::F64, M::A, true, false, false, false, 8, 1},     // LD.E.64
      {16, 16, 16, T::F32, M::C, true, true, false, false, 8, 4},   // 4 x LDS.64
      {16, 16, 16, T::F32, M::C, false, true, false, false, 4, 8},  // 8 x LDS
      {32, 8, 16, T::F32, M::C, true, true, false, false, 8, 4},    // 4 x LDS.64
      {32, 8, 16, T::F32, M::C, false, true, false, false, 4, 8},   // 8 x LDS
      {8, 32, 16, T::F32, M::C, true, true, false, false, 4, 8},    // 8 x LDS
      {8, 32, 16, T::F32, M::C, false, true, false, false, 8, 4},   // 4 x LDS.64
      {16, 16, 16, T::S32, M::C, false, true, false, false, 4, 8},  // 8 x LDS
      {16, 16, 16, T::F16, M::C, true, true, false, false, 4, 4},   // 4 x LDS
      {16, 16, 16, T::F16, M::C, false, true, false, false, 4, 4},  // 4 x LDS (then MOVM)
      {8, 32, 16, T::F16, M::C, true, true, false, false, 4, 4},    // 4 x LDS + MOVM
      {8, 8, 4, T::F64, M::C, true, false, false, false, 16, 1},    // LD.E.128
      {8, 8, 4, T::F64, M::C, false, false, false, false, 8, 2},    // 2 x LD.E.64
  };
  for (const PlanCase& c : cases) {
    SCOPED_TRACE(shape_name(c.m, c.n, c.k) + "." + std::string(ptx::tensor_type_name(c.type)) + " operand " +
                 std::to_string(static_cast<int>(c.which)) + (c.row_major ? " row" : " col") + (c.shared ? " shared" : ""));
    auto f = wmma_layout(c.m, c.n, c.k, c.type, c.which);
    ASSERT_TRUE(f);
    const WmmaPlan p = plan_wmma(*f, c.which, c.row_major, c.shared);
    ASSERT_EQ(static_cast<int>(p.accesses.size()), c.count);
    std::set<std::pair<int, int>> bytes;  // every byte of the tile once
    for (const WmmaAccess& a : p.accesses) {
      EXPECT_EQ(a.ldmatrix, c.ldmatrix);
      EXPECT_EQ(a.trans, c.trans);
      EXPECT_EQ(a.width, c.width);
      for (int l = 0; l < 32; ++l) {
        if (!((a.mask >> l) & 1u)) continue;
        const auto& at = a.at[static_cast<std::size_t>(l)];
        for (int b = 0; b < a.lane_bytes(); ++b)
          EXPECT_TRUE(bytes.insert({at.row, at.col * p.element_bytes + b}).second) << "lane " << l;
      }
    }
    EXPECT_EQ(bytes.size(), static_cast<std::size_t>(p.mem_rows * p.mem_cols * p.element_bytes));
  }
}

TEST(WmmaPlan, LdmatrixRowsAreEightConsecutiveMemoryRowsOfOneBlock) {
  auto f = wmma_layout(16, 16, 16, T::F16, MatrixOperand::A);
  const WmmaPlan p = plan_wmma(*f, MatrixOperand::A, true, true);
  ASSERT_EQ(p.accesses.size(), 1u);
  const WmmaAccess& a = p.accesses[0];
  for (int j = 0; j < 4; ++j)
    for (int r = 0; r < 8; ++r) {
      const auto& at = a.at[static_cast<std::size_t>(8 * j + r)];
      EXPECT_EQ(at.row % 8, r);
      EXPECT_EQ(at.row - r, a.at[static_cast<std::size_t>(8 * j)].row);
      EXPECT_EQ(at.col % 8, 0);
    }
}

}  // namespace
}  // namespace warpscope::emu
