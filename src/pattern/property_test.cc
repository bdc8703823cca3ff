// property_test.cc: properties of the runner's figures over many random programs.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "pattern/test_util.h"

namespace warpscope::pattern {
namespace {

// For 4-byte elements, s[base + lane*stride] puts lane l in bank (base + l*stride) % 32;
// lanes share a bank when their difference times stride is a multiple of 32, so each bank
// holds gcd(stride, 32) distinct words: the conflict degree.
TEST(PatternProperty, StrideConflictDegreeIsGcdWith32) {
  std::mt19937 rng(20261129);
  for (int trial = 0; trial < 300; ++trial) {
    const int stride = 1 + static_cast<int>(rng() % 200);
    const int base = static_cast<int>(rng() % 64);
    const std::string text = "shared float s[" + std::to_string(base + 31 * stride + 1) + "]\nload s[" +
                             std::to_string(base) + " + lane*" + std::to_string(stride) + "]";
    auto r = testing::analyze_text(text);
    ASSERT_TRUE(r.ok()) << text;
    const auto& c = *testing::only_behaviour(*r).cost.shared;
    const int degree = std::gcd(stride, 32);
    EXPECT_EQ(c.worst_degree, degree) << text;
    EXPECT_EQ(c.wavefronts, degree) << text;
    EXPECT_EQ(c.ideal_wavefronts, 1) << text;
    if (degree > 1) EXPECT_EQ(std::popcount(c.colliding_lanes), degree) << text;
  }
}

// The bank diagram has one row per wavefront and each bank's load equals its rows used,
// for plain 4-byte loads of random lane permutations and strides.
TEST(PatternProperty, DiagramHeightIsTheWavefrontCount) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 200; ++trial) {
    const int mul = 1 + static_cast<int>(rng() % 40);
    const int xr = static_cast<int>(rng() % 32);
    const int mod = 1 + static_cast<int>(rng() % 64);
    const std::string text = "shared float s[4096]\nload s[((lane ^ " + std::to_string(xr) + ") * " + std::to_string(mul) +
                             ") % " + std::to_string(mod) + " * 3]";
    auto r = testing::analyze_text(text);
    ASSERT_TRUE(r.ok()) << text;
    const Behaviour& b = testing::only_behaviour(*r);
    EXPECT_EQ(static_cast<int>(b.diagram.rows.size()), b.cost.shared->wavefronts) << text;
    int max_load = 0;
    for (int load : b.diagram.bank_load) max_load = std::max(max_load, load);
    EXPECT_EQ(max_load, b.cost.shared->worst_degree) << text;
  }
}

// The same for wide loads and stores, with lanes that often share addresses (the case in
// which the hardware pairs lanes up): the diagram finds a lane grouping that reproduces the
// model's wavefront count.
TEST(PatternProperty, WideDiagramsAgreeWithTheModel) {
  std::mt19937 rng(11);
  const char* types[] = {"double", "float4", "float2", "int4"};
  const char* ops[] = {"load", "store"};
  for (int trial = 0; trial < 400; ++trial) {
    const std::string type = types[rng() % 4];
    const std::string op = ops[rng() % 2];
    const int shift = static_cast<int>(rng() % 3);  // lanes >> shift: pairs and quads share
    const int mul = 1 + static_cast<int>(rng() % 9);
    const std::string text = "shared " + type + " s[512]\n" + op + " s[(lane >> " + std::to_string(shift) +
                             ") * " + std::to_string(mul) + " % 512]";
    auto r = testing::analyze_text(text);
    ASSERT_TRUE(r.ok()) << text;
    const Behaviour& b = testing::only_behaviour(*r);
    EXPECT_EQ(static_cast<int>(b.diagram.rows.size()), b.cost.shared->wavefronts) << text;
  }
}

}  // namespace
}  // namespace warpscope::pattern
