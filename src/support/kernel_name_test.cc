// kernel_name_test.cc: how users, c++filt and ncu spell kernels, against PTX entries.
#include "support/kernel_name.h"

#include <gtest/gtest.h>

namespace warpscope {
namespace {

// The entries nvcc 13 made of a file of our own (tests/data names: see the comments).
const std::vector<std::string> kEntries = {
    "_Z6reduceIfLi256EEvPT_PKS0_j",            // 0 void reduce<float, 256>(float*, float const*, unsigned int)
    "_Z6reduceIdLi128EEvPT_PKS0_j",            // 1 void reduce<double, 128>(double*, double const*, unsigned int)
    "_Z21mergeSortSharedKernelILj1EEvPjS0_j",  // 2 void mergeSortSharedKernel<1u>(unsigned int*, unsigned int*, unsigned int)
    "_Z21mergeSortSharedKernelILj0EEvPjS0_j",  // 3 ... <0u>
    "_Z16reduceSinglePassILj128ELb1EEvPKfPfj", // 4 void reduceSinglePass<128u, true>(float const*, float*, unsigned int)
    "_Z16reduceSinglePassILj128ELb0EEvPKfPfj", // 5 ... <128u, false>
    "_Z3fooPf",                                // 6 foo(float*)
    "_Z3fooPi",                                // 7 foo(int*)
    "_Z6bycharILc65EEvPi",                     // 8 void bychar<(char)65>(int*)
    "plain_c",                                 // 9 extern "C"
    "_ZN2ns6kernelIiEEvPT_",                   // 10 void ns::kernel<int>(int*)
    "_ZN40_GLOBAL__N__84974c32_8_names_cu__Z3fooPf6hiddenEc",  // 11 (anonymous namespace)::hidden(char)
};

struct Case {
  const char* spelling;
  std::vector<std::size_t> chosen;
};

// A user's spelling -> the entries it names (several: ambiguous; none: unknown).
const Case kCases[] = {
    // mangled, as in the PTX
    {"_Z6reduceIfLi256EEvPT_PKS0_j", {0}},
    {"_Z3fooPi", {7}},
    // c++filt's form, with or without `void` and the parameters, spaces or not
    {"void reduce<float, 256>(float*, float const*, unsigned int)", {0}},
    {"reduce<float, 256>(float*, float const*, unsigned int)", {0}},
    {"reduce<float, 256>", {0}},
    {"reduce<float,256>", {0}},
    {"  reduce< float , 256 >  ", {0}},
    {"mergeSortSharedKernel<1u>", {2}},
    {"void mergeSortSharedKernel<0u>(unsigned int*, unsigned int*, unsigned int)", {3}},
    {"void reduceSinglePass<128u, true>(float const*, float*, unsigned int)", {4}},
    {"bychar<(char)65>", {8}},
    // ncu's: literals without suffixes, bools as 1/0, template parameter names in the
    // parameter list, `const` in front
    {"reduceSinglePass<128, 1>", {4}},
    {"reduceSinglePass<128, 0>", {5}},
    {"void reduceSinglePass<128, 1>(const T1 *, float *, unsigned int)", {4}},
    {"mergeSortSharedKernel<1>", {2}},
    {"bychar<65>", {8}},
    {"void reduce<double, 128>(T1 *, const T1 *, unsigned int)", {1}},
    // parameters choose between overloads; const placement and spaces do not matter
    {"foo(int*)", {7}},
    {"void foo(float *)", {6}},
    {"void reduce<float, 256>(float *, const float *, unsigned int)", {0}},
    // plain names: every instance
    {"reduce", {0, 1}},
    {"mergeSortSharedKernel", {2, 3}},
    {"foo", {6, 7}},
    {"plain_c", {9}},
    {"hidden", {11}},
    {"(anonymous namespace)::hidden", {11}},
    {"ns::kernel", {10}},
    {"ns::kernel<int>", {10}},
    {"kernel", {10}},
    {"kernel<int>", {}},  // a qualified template's arguments need its qualification
    // names of no entry
    {"reduce<float, 128>", {}},
    {"nope", {}},
    {"", {}},
    {"void (int *)", {}},
};

TEST(KernelName, UserSpellingsChooseTheirEntries) {
  for (const Case& c : kCases) EXPECT_EQ(find_kernel_names(c.spelling, kEntries), c.chosen) << "'" << c.spelling << "'";
}

TEST(KernelName, DisplayNamesAreDemangledWithoutTheReturnType) {
  EXPECT_EQ(kernel_display_name("_Z6reduceIfLi256EEvPT_PKS0_j"), "reduce<float, 256>(float*, float const*, unsigned int)");
  EXPECT_EQ(kernel_display_name("_Z3fooPi"), "foo(int*)");
  EXPECT_EQ(kernel_display_name("plain_c"), "plain_c");
  EXPECT_EQ(kernel_display_name("_ZN40_GLOBAL__N__84974c32_8_names_cu__Z3fooPf6hiddenEc"),
            "(anonymous namespace)::hidden(char)");
  EXPECT_EQ(kernel_display_name("void ns::kernel<int>(int*)"), "ns::kernel<int>(int*)");
  EXPECT_EQ(kernel_short_name("_Z6reduceIfLi256EEvPT_PKS0_j"), "reduce<float, 256>");
  EXPECT_EQ(kernel_short_name("plain_c"), "plain_c");
  EXPECT_EQ(demangle("_Z3fooPi"), "foo(int*)");
  EXPECT_EQ(kernel_base_name("_ZN2ns6kernelIiEEvPT_"), "kernel");
  EXPECT_EQ(kernel_base_name("_Z6reduceIfLi256EEvPT_PKS0_j"), "reduce");
  EXPECT_EQ(kernel_base_name("_ZN40_GLOBAL__N__84974c32_8_names_cu__Z3fooPf6hiddenEc"), "hidden");
  EXPECT_EQ(kernel_base_name("plain_c"), "plain_c");
  EXPECT_EQ(demangle("_Znot_really_mangled"), "_Znot_really_mangled");
}

TEST(KernelName, KeysDropReturnTypeAndParameters) {
  EXPECT_EQ(kernel_name_key("transpose_tiled_f32"), "transpose_tiled_f32");
  EXPECT_EQ(kernel_name_key("void transpose_padded<float>(T1 *, const T1 *, int)"), "transpose_padded<float>");
  EXPECT_EQ(kernel_name_key("_Z16transpose_paddedIfEvPT_PKS0_i"), "transpose_padded<float>");
  EXPECT_EQ(kernel_name_key("void ns::k<float, 4>(float *)"), "ns::k<float,4>");
  EXPECT_EQ(kernel_name_key("_Z16reduceSinglePassILj128ELb1EEvPKfPfj"), "reduceSinglePass<128,1>");
  EXPECT_EQ(kernel_name_key("k<0x10ul, false>"), "k<0x10,0>");
  EXPECT_EQ(kernel_name_key("k<float4, __half2>"), "k<float4,__half2>");  // digits inside names stay
}

TEST(KernelName, DemangledNcuNamesMatchTheMangledPtxEntryOfTheSameInstanceOnly) {
  // As ncu 2025.3 printed the examples' template kernels on the H200.
  EXPECT_TRUE(kernel_names_match("void transpose_padded<float>(T1 *, const T1 *, int)", "_Z16transpose_paddedIfEvPT_PKS0_i"));
  EXPECT_FALSE(kernel_names_match("void transpose_padded<double>(T1 *, const T1 *, int)", "_Z16transpose_paddedIfEvPT_PKS0_i"));
  EXPECT_TRUE(kernel_names_match("_Z16transpose_paddedIfEvPT_PKS0_i", "_Z16transpose_paddedIfEvPT_PKS0_i"));
  EXPECT_TRUE(kernel_names_match("transpose_padded", "_Z16transpose_paddedIfEvPT_PKS0_i"));  // --print-kernel-base function
  EXPECT_TRUE(kernel_names_match("void transpose_padded<float>(T1 *, const T1 *, int)", "transpose_padded"));
  EXPECT_TRUE(kernel_names_match("histogram256", "histogram256"));
  EXPECT_FALSE(kernel_names_match("histogram256", "histogram256_rank"));
}

TEST(KernelName, AnonymousNamespaceIsPartOfTheName) {
  EXPECT_EQ(kernel_name_key("void (anonymous namespace)::k<int>(int *)"), "(anonymousnamespace)::k<int>");
  EXPECT_FALSE(kernel_names_match("void (anonymous namespace)::k<int>(int *)", "void (anonymous namespace)::j<int>(int *)"));
  EXPECT_TRUE(kernel_names_match("void (anonymous namespace)::k<int>(int *)", "void (anonymous namespace)::k<int>(int *)"));
  EXPECT_EQ(kernel_name_key("void (int *)"), "");
  EXPECT_FALSE(kernel_names_match("void (int *)", "void (float *)"));  // nothing left to compare
}

}  // namespace
}  // namespace warpscope
