// kernels_test.cc: more nvcc kernels (tests/data/ptx/kernels2.cu and sm_80 builds).
#include <gtest/gtest.h>

#include <cmath>

#include "emu/emu_test_util.h"

namespace warpscope::emu {
namespace {

using testing::make_buffer;
using testing::read_buffer;
using testing::test_module;

std::string text(const RunReport& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += d.message + "\n";
  return s;
}

TEST(Kernels, TiledGemm) {
  const int n = 64;
  std::vector<float> a(n * n), b(n * n);
  for (int i = 0; i < n * n; ++i) {
    a[static_cast<std::size_t>(i)] = static_cast<float>((i * 7) % 11) - 5.f;
    b[static_cast<std::size_t>(i)] = static_cast<float>((i * 5) % 13) - 6.f;
  }
  GlobalMemory memory;
  auto ab = make_buffer(memory, a, "A"), bb = make_buffer(memory, b, "B");
  auto cb = memory.allocate(n * n * 4, "C");
  auto r = run(test_module("kernels2"), "gemm_tiled", {{n / 16, n / 16, 1}, {16, 16, 1}},
               {KernelArg::of(ab), KernelArg::of(bb), KernelArg::of(cb), KernelArg::of(n)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_TRUE(r->diagnostics.empty()) << text(*r);
  auto c = read_buffer<float>(memory, cb);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      float e = 0;
      for (int k = 0; k < n; ++k) e += a[static_cast<std::size_t>(i * n + k)] * b[static_cast<std::size_t>(k * n + j)];
      ASSERT_EQ(c[static_cast<std::size_t>(i * n + j)], e) << i << "," << j;
    }
}

TEST(Kernels, Float4ThroughShared) {
  std::vector<float> in(256 * 4);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i);
  GlobalMemory memory;
  auto ib = make_buffer(memory, in, "in");
  auto ob = memory.allocate(in.size() * 4, "out");
  auto r = run(test_module("kernels2"), "float4_copy", {{2, 1, 1}, {128, 1, 1}}, {KernelArg::of(ob), KernelArg::of(ib)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_TRUE(r->diagnostics.empty()) << text(*r);
  auto out = read_buffer<float>(memory, ob);
  for (int b = 0; b < 2; ++b)
    for (int t = 0; t < 128; ++t) {
      std::size_t src = static_cast<std::size_t>(b * 128 + 127 - t) * 4, dst = static_cast<std::size_t>(b * 128 + t) * 4;
      EXPECT_EQ(out[dst], in[src] + 1.f);
      EXPECT_EQ(out[dst + 3], in[src + 3]);
    }
}

TEST(Kernels, TransposeDouble) {
  const int n = 64;
  std::vector<double> in(n * n);
  for (int i = 0; i < n * n; ++i) in[static_cast<std::size_t>(i)] = i * 0.25;
  GlobalMemory memory;
  auto ib = make_buffer(memory, in, "in");
  auto ob = memory.allocate(n * n * 8, "out");
  auto r = run(test_module("kernels2"), "transpose_double", {{2, 2, 1}, {32, 8, 1}},
               {KernelArg::of(ob), KernelArg::of(ib), KernelArg::of(n)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  auto out = read_buffer<double>(memory, ob);
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) ASSERT_EQ(out[static_cast<std::size_t>(x * n + y)], in[static_cast<std::size_t>(y * n + x)]);
}

TEST(Kernels, LocalArrayAndStructArgument) {
  struct Params {
    int scale;
    float bias;
    int offsets[4];
  } p{3, 2.5f, {10, 20, 30, 40}};
  GlobalMemory memory;
  auto ob = memory.allocate(32 * 4, "out");
  auto r = run(test_module("kernels2"), "local_array", {{1, 1, 1}, {32, 1, 1}},
               {KernelArg::of(ob), KernelArg::of(p), KernelArg::of(5)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_TRUE(r->diagnostics.empty()) << text(*r);
  auto out = read_buffer<int>(memory, ob);
  for (int t = 0; t < 32; ++t) EXPECT_EQ(out[static_cast<std::size_t>(t)], ((t + 5) & 15) * 3 + t + p.offsets[t & 3] + 2);
}

TEST(Kernels, BarrierReductionsReduxAndCas) {
  std::vector<float> in(128);
  for (int i = 0; i < 128; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>((i * 37) % 100) / 100.f;
  GlobalMemory memory;
  auto ib = make_buffer(memory, in, "in");
  auto ob = memory.allocate(2 * 4 * 4, "out");
  auto mx = memory.allocate(4, "max");
  auto r = run(test_module("kernels2"), "sync_count", {{2, 1, 1}, {64, 1, 1}},
               {KernelArg::of(ob), KernelArg::of(mx), KernelArg::of(ib)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_TRUE(r->diagnostics.empty()) << text(*r);
  auto out = read_buffer<int>(memory, ob);
  float best = 0;
  for (int b = 0; b < 2; ++b) {
    int count = 0, any = 0;
    unsigned redux = 0;
    for (int t = 0; t < 64; ++t) {
      float v = in[static_cast<std::size_t>(b * 64 + t)];
      count += v > 0.5f;
      any |= v > 0.99f;
      if (t >= 32) redux += static_cast<unsigned>(v * 10);
      best = std::max(best, v);
    }
    EXPECT_EQ(out[static_cast<std::size_t>(b * 4)], count);
    EXPECT_EQ(out[static_cast<std::size_t>(b * 4 + 1)], 1);
    EXPECT_EQ(out[static_cast<std::size_t>(b * 4 + 2)], any);
    EXPECT_EQ(static_cast<unsigned>(out[static_cast<std::size_t>(b * 4 + 3)]), redux);
  }
  EXPECT_EQ(read_buffer<float>(memory, mx)[0], best);
}

// printf runs as nothing, with one warning a call site: the GPU's moves memory ncu counts.
TEST(Kernels, PrintfIsANoOp) {
  GlobalMemory memory;
  auto ob = memory.allocate(32 * 4, "out");
  auto r = run(test_module("kernels2"), "with_printf", {{2, 1, 1}, {32, 1, 1}}, {KernelArg::of(ob)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  ASSERT_EQ(r->diagnostics.size(), 1u) << text(*r);
  EXPECT_EQ(r->diagnostics[0].severity, Diagnostic::Severity::Warning);
  EXPECT_NE(r->diagnostics[0].message.find("printf at "), std::string::npos) << text(*r);
  EXPECT_NE(r->diagnostics[0].message.find("op_st"), std::string::npos) << text(*r);
  EXPECT_EQ(read_buffer<int>(memory, ob)[31], 31);
}

TEST(Kernels, HalfPrecision) {
  std::vector<float> in(64);
  for (int i = 0; i < 64; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i) * 0.125f - 2.f;
  GlobalMemory memory;
  auto ib = make_buffer(memory, in, "in");
  auto ob = memory.allocate(32 * 4, "out");
  auto r = run(test_module("kernels2"), "halves", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(ob), KernelArg::of(ib)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_TRUE(r->diagnostics.empty()) << text(*r);
  auto out = read_buffer<std::uint32_t>(memory, ob);
  for (int t = 0; t < 32; ++t) {
    float a = in[static_cast<std::size_t>(t)], b = in[static_cast<std::size_t>(t + 32)];
    // a*a + 0.5 is exact in float; the fused result rounds once to half. a is the low half.
    EXPECT_EQ(out[static_cast<std::size_t>(t)] & 0xffffu, float_to_half(a * a + 0.5f)) << t;
    EXPECT_EQ(out[static_cast<std::size_t>(t)] >> 16, float_to_half(b * b + 0.5f)) << t;
  }
}

TEST(Kernels, Sm80Builds) {
  const int n = 64;
  GlobalMemory memory;
  std::vector<float> in(n * n);
  for (int i = 0; i < n * n; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i);
  auto ib = make_buffer(memory, in, "in");
  auto ob = memory.allocate(n * n * 4, "out");
  auto r = run(test_module("transpose_sm80"), "transpose_tiled", {{2, 2, 1}, {32, 8, 1}},
               {KernelArg::of(ob), KernelArg::of(ib), KernelArg::of(n)}, memory);
  ASSERT_TRUE(r) << r.error().render();
  auto out = read_buffer<float>(memory, ob);
  EXPECT_EQ(out[1], in[n]);
  std::vector<float> ones(4096, 1.f);
  auto ones_b = make_buffer(memory, ones, "ones");
  auto sum = memory.allocate(4, "sum");
  auto s = run(test_module("reduce_sm80"), "reduce_shfl", {{16, 1, 1}, {256, 1, 1}},
               {KernelArg::of(ones_b), KernelArg::of(sum), KernelArg::of(4096)}, memory);
  ASSERT_TRUE(s) << s.error().render();
  EXPECT_EQ(read_buffer<float>(memory, sum)[0], 4096.f);
}

TEST(Kernels, TritonStyleVectorAdd) {
  const int n = 1000;  // not a multiple of the 512 elements a block handles: masked tail
  std::vector<float> x(1024), y(1024);
  for (int i = 0; i < 1024; ++i) {
    x[static_cast<std::size_t>(i)] = static_cast<float>(i);
    y[static_cast<std::size_t>(i)] = 0.5f * static_cast<float>(i);
  }
  GlobalMemory memory;
  auto xb = make_buffer(memory, x, "x"), yb = make_buffer(memory, y, "y");
  auto ob = memory.allocate(1024 * 4, "out");
  RunOptions one;
  one.workers = 1;
  auto r = run(test_module("triton_add"), "add_kernel", {{2, 1, 1}, {128, 1, 1}},
               {KernelArg::of(xb), KernelArg::of(yb), KernelArg::of(ob), KernelArg::of(n)}, memory, one,
               testing::recorder_factory());
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_TRUE(r->diagnostics.empty()) << text(*r);
  auto out = read_buffer<float>(memory, ob);
  for (int i = 0; i < 1024; ++i) EXPECT_EQ(out[static_cast<std::size_t>(i)], i < n ? 1.5f * static_cast<float>(i) : 0.f) << i;
  auto rec = testing::merged(*r);
  ASSERT_EQ(rec.accesses.size(), 2u * 4 * 3);  // 2 blocks x 4 warps x (2 loads + 1 store)
  EXPECT_EQ(rec.accesses[0].access.width, 16);
  EXPECT_EQ(rec.accesses[0].instruction->debug.loc.line, 35);
  // Block 1, warp 3 covers elements 896..1023: lanes 26.. are past n = 1000.
  EXPECT_EQ(rec.accesses.back().access.mask, (1u << 26) - 1);
  EXPECT_EQ(r->regions[static_cast<std::size_t>(rec.accesses[0].region)].name, "x");
}

}  // namespace
}  // namespace warpscope::emu
