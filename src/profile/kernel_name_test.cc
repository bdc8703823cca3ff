// kernel_name_test.cc: ncu's kernel names against PTX entry names.
#include "profile/kernel_name.h"

#include <gtest/gtest.h>

namespace warpscope::profile {
namespace {

TEST(KernelName, KeysDropReturnTypeAndParameters) {
  EXPECT_EQ(kernel_name_key("transpose_tiled_f32"), "transpose_tiled_f32");
  EXPECT_EQ(kernel_name_key("void transpose_padded<float>(T1 *, const T1 *, int)"), "transpose_padded<float>");
  EXPECT_EQ(kernel_name_key("_Z16transpose_paddedIfEvPT_PKS0_i"), "transpose_padded<float>");
  EXPECT_EQ(kernel_name_key("void ns::k<float, 4>(float *)"), "ns::k<float,4>");
}

TEST(KernelName, DemangledNcuNamesMatchTheMangledPtxEntryOfTheSameInstanceOnly) {
  // As ncu 2025.3 printed the examples' template kernels on the H200.
  EXPECT_TRUE(kernel_names_match("void transpose_padded<float>(T1 *, const T1 *, int)", "_Z16transpose_paddedIfEvPT_PKS0_i"));
  EXPECT_FALSE(kernel_names_match("void transpose_padded<double>(T1 *, const T1 *, int)", "_Z16transpose_paddedIfEvPT_PKS0_i"));
  EXPECT_TRUE(kernel_names_match("_Z16transpose_paddedIfEvPT_PKS0_i", "_Z16transpose_paddedIfEvPT_PKS0_i"));
  EXPECT_TRUE(kernel_names_match("transpose_padded", "_Z16transpose_paddedIfEvPT_PKS0_i"));  // --print-kernel-base function
  EXPECT_TRUE(kernel_names_match("histogram256", "histogram256"));
  EXPECT_FALSE(kernel_names_match("histogram256", "histogram256_rank"));
}

TEST(KernelName, AnonymousNamespaceIsPartOfTheName) {
  // Review finding: "(anonymous namespace)" was taken for the parameter list, leaving an empty
  // key that matched every other such kernel.
  EXPECT_EQ(kernel_name_key("void (anonymous namespace)::k<int>(int *)"), "(anonymousnamespace)::k<int>");
  EXPECT_FALSE(kernel_names_match("void (anonymous namespace)::k<int>(int *)", "void (anonymous namespace)::j<int>(int *)"));
  EXPECT_TRUE(kernel_names_match("void (anonymous namespace)::k<int>(int *)", "void (anonymous namespace)::k<int>(int *)"));
  EXPECT_EQ(kernel_name_key("void (int *)"), "");
  EXPECT_FALSE(kernel_names_match("void (int *)", "void (float *)"));  // nothing left to compare
}

}  // namespace
}  // namespace warpscope::profile
