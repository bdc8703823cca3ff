// layout_test.cc: properties of the layout candidates: swizzles and skews are bijections on
// their domain, padding never aliases two elements, and the printed code matches the map.
#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "layout/layout.h"
#include "layout/layout_code.h"

namespace warpscope::layout {
namespace {

// Every element's first byte maps to a distinct place, and the bytes of an element stay
// together: the map is a bijection from elements to disjoint element slots.
void expect_no_alias(const Layout& l, std::uint64_t size, std::uint64_t elem) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t off = 0; off < size; off += elem) {
    const std::uint64_t to = apply(l, off);
    EXPECT_EQ(to % elem, 0u) << describe(l) << " offset " << off;
    EXPECT_LT(to, footprint(l, size)) << describe(l) << " offset " << off;
    for (std::uint64_t b = 1; b < elem; ++b) EXPECT_EQ(apply(l, off + b), to + b) << describe(l);
    EXPECT_TRUE(seen.insert(to).second) << describe(l) << " aliases at offset " << off;
  }
}

TEST(Swizzle, IsABijectionOnItsDomain) {
  int checked = 0;
  for (int b = 1; b <= 5; ++b)
    for (int m = 0; m <= 4; ++m)
      for (int s = b; s <= 6; ++s)
        for (std::uint64_t size : {std::uint64_t{1} << (m + s + b), std::uint64_t{3} << (m + s + b)}) {
          const Swizzle sw{b, m, s};
          ASSERT_TRUE(swizzle_fits(sw, size));
          std::vector<bool> hit(size, false);
          for (std::uint64_t x = 0; x < size; ++x) {
            const std::uint64_t y = apply(sw, x);
            ASSERT_LT(y, size) << describe(sw);
            ASSERT_FALSE(hit[y]) << describe(sw) << " maps two offsets to " << y;
            hit[y] = true;
            EXPECT_EQ(apply(sw, y), x) << "S >= B makes a swizzle its own inverse";
          }
          ++checked;
        }
  EXPECT_GT(checked, 100);
}

TEST(Swizzle, OnlyTheDestinationBitsChange) {
  const Swizzle sw{3, 4, 3};  // 0b YYY ZZZ xxxx
  for (std::uint64_t x = 0; x < 4096; ++x) EXPECT_EQ(apply(sw, x) & ~std::uint64_t{0x70}, x & ~std::uint64_t{0x70});
  EXPECT_EQ(apply(sw, 0x80), 0x80u + 0x10u);    // row 1: chunk 0 -> chunk 1
  EXPECT_EQ(apply(sw, 0x3a0), 0x3a0u ^ 0x70u);  // row 7, chunk 2 -> chunk 5
}

TEST(Swizzle, FitsOnlyWhereTheSourceBitsLieInsideTheArray) {
  EXPECT_TRUE(swizzle_fits({3, 4, 3}, 1024));
  EXPECT_FALSE(swizzle_fits({3, 4, 3}, 512));  // row bits 7..9 reach past 512 B
  EXPECT_FALSE(swizzle_fits({3, 4, 2}, 4096)); // S < B: source and destination overlap
  EXPECT_FALSE(swizzle_fits({3, 4, 3}, 1040)); // not a multiple of 128 B
}

TEST(Swizzle, TmaModes) {
  EXPECT_EQ(tma_mode({1, 4, 3}), "CU_TENSOR_MAP_SWIZZLE_32B");
  EXPECT_EQ(tma_mode({2, 4, 3}), "CU_TENSOR_MAP_SWIZZLE_64B");
  EXPECT_EQ(tma_mode({3, 4, 3}), "CU_TENSOR_MAP_SWIZZLE_128B");
  EXPECT_EQ(tma_mode({3, 4, 4}), "");
  EXPECT_EQ(describe(Swizzle{3, 4, 3}), "Swizzle<3,4,3> (TMA 128B)");
}

TEST(Padding, NeverAliasesTwoElements) {
  for (std::uint64_t elem : {1, 2, 4, 8, 16})
    for (std::uint64_t row = 32; row <= 1024; row *= 2)
      for (std::uint64_t pad = 1; pad <= 4; ++pad) {
        if (row < elem) continue;
        expect_no_alias(Padding{row, pad * elem}, 4 * row, elem);
      }
}

TEST(Padding, GrowsEachRowAndTheFootprint) {
  const Padding p{128, 4};  // float tile[32][32] -> [32][33]
  EXPECT_EQ(apply(p, 0), 0u);
  EXPECT_EQ(apply(p, 124), 124u);
  EXPECT_EQ(apply(p, 128), 132u);
  EXPECT_EQ(apply(p, 31 * 128 + 4), 31u * 132 + 4);
  EXPECT_EQ(footprint(p, 4096), 32u * 132);
  EXPECT_EQ(footprint(Swizzle{5, 2, 5}, 4096), 4096u);
}

TEST(Skew, IsABijectionThatKeepsRows) {
  for (std::uint64_t elem : {4, 8, 16})
    for (std::uint64_t row : {64, 128, 256}) {
      const Skew k{row, elem};
      expect_no_alias(k, 8 * row, elem);
      for (std::uint64_t off = 0; off < 8 * row; off += elem) EXPECT_EQ(apply(k, off) / row, off / row);
    }
  EXPECT_EQ(apply(Skew{128, 4}, 128 + 31 * 4), 128u + 0u);  // (c 31 + r 1) % 32 = 0
}

TEST(LayoutCode, PrintsTheDeclarationOrTheIndex) {
  const ArrayShape tile{"tile", 4, 4096};
  EXPECT_EQ(layout_code(Padding{128, 4}, tile), "__shared__ float tile[32][33];  // 1-D: tile[i + i / 32] in 1056 elements");
  EXPECT_EQ(layout_code(Swizzle{5, 2, 5}, tile), "tile[r][c ^ (r & 31)]  // rows of 32; 1-D: tile[i ^ ((i >> 5) & 31)]");
  EXPECT_EQ(layout_code(Skew{128, 4}, tile), "tile[r][(c + r) % 32]  // rows of 32");
  const ArrayShape chunks{"tile", 16, 8192};
  EXPECT_EQ(layout_code(Swizzle{3, 4, 3}, chunks), "tile[r][c ^ (r & 7)]  // rows of 8; 1-D: tile[i ^ ((i >> 3) & 7)]");
  EXPECT_EQ(cute_code(Swizzle{3, 4, 3}, chunks),
            "Swizzle<3,0,3> on element offsets (Swizzle<3,4,3> on bytes); TMA: CU_TENSOR_MAP_SWIZZLE_128B");
  EXPECT_EQ(cute_code(Padding{128, 4}, tile), "");
}

// The printed 1-D swizzle index is the map: i ^ ((i >> S) & dst) on element indices.
TEST(LayoutCode, FlatSwizzleExpressionAgreesWithApply) {
  const Swizzle sw{2, 3, 4};  // 2-byte elements: element M = 2
  for (std::uint64_t i = 0; i < 2048; ++i) {
    const std::uint64_t printed = i ^ ((i >> 4) & (std::uint64_t{3} << 2));
    EXPECT_EQ(apply(sw, i * 2), printed * 2);
  }
}

}  // namespace
}  // namespace warpscope::layout
