// element_type_test.cc: element types read from declarations and from PTX accesses.
#include <gtest/gtest.h>

#include "analysis/element_type.h"

namespace warpscope::analysis {
namespace {

TEST(ElementType, DeclarationsGiveTheTypeAsWritten) {
  const std::vector<std::string> cu{
      "__global__ void h(const unsigned char* in) {",
      "  __shared__ unsigned int s_hist[256];",
      "  __shared__ __align__(16) float tile[32][33], other[4];",
      "  extern __shared__ double sdata[];",
      "  __shared__ const volatile int2 pairs[64];",
      "  __shared__ cuda::std::uint32_t counts[8];",
      "}",
      "template <typename T, int N> __global__ void t() { __shared__ T buf[N]; }",
  };
  EXPECT_EQ(declared_element_type(cu, "s_hist"), "unsigned int");
  EXPECT_EQ(declared_element_type(cu, "tile"), "float");
  EXPECT_EQ(declared_element_type(cu, "sdata"), "double");
  EXPECT_EQ(declared_element_type(cu, "pairs"), "int2");
  EXPECT_EQ(declared_element_type(cu, "counts"), "cuda::std::uint32_t");
  EXPECT_EQ(declared_element_type(cu, "buf"), std::nullopt);  // T: the PTX decides
  EXPECT_EQ(declared_element_type(cu, "nothere"), std::nullopt);
}

TEST(ElementType, PtxAccessesNameTheirType) {
  EXPECT_EQ(ptx_element_type(ptx::Type::U32, 1), "unsigned");
  EXPECT_EQ(ptx_element_type(ptx::Type::S32, 1), "int");
  EXPECT_EQ(ptx_element_type(ptx::Type::F32, 4), "float4");
  EXPECT_EQ(ptx_element_type(ptx::Type::U32, 2), "uint2");
  EXPECT_EQ(ptx_element_type(ptx::Type::B32, 1), "");  // a size, not a type
  EXPECT_EQ(sized_element_type(4), "uint32_t");
}

}  // namespace
}  // namespace warpscope::analysis
