// semantics_test.cc: instruction semantics on small hand-written PTX (Triton-style
// spacing, nested inline-asm scopes, carries, conversions, shuffles, initializers).
#include <gtest/gtest.h>

#include <cmath>

#include "emu/emu_test_util.h"
#include "emu/tensor_values.h"

namespace warpscope::emu {
namespace {

using testing::read_buffer;

// Runs `body` as a kernel k(.param .u64 out) on one warp; %rd1 holds out + 8 * lane
// (generic), %r0 the lane; the body stores into [%rd1].
std::vector<std::uint64_t> run_body(const std::string& body, std::string extra_decls = "", int threads = 32) {
  std::string src = ".version 8.0\n.target sm_90\n.address_size 64\n" + extra_decls +
                    "\n.visible .entry k(.param .u64 k_param_0)\n{\n"
                    "\t.reg .pred %p<8>;\n\t.reg .b16 %rs<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<16>;\n"
                    "\t.reg .f32 %f<16>;\n\t.reg .f64 %fd<8>;\n"
                    "\tld.param.u64 %rd0, [k_param_0];\n\tmov.u32 %r0, %tid.x;\n"
                    "\tmul.wide.u32 %rd2, %r0, 8;\n\tadd.s64 %rd1, %rd0, %rd2;\n" +
                    body + "\n\tret;\n}\n";
  auto m = ptx::parse(src, "t.ptx");
  EXPECT_TRUE(m) << m.error().render() << "\n" << m.error().source_line;
  if (!m) return {};
  GlobalMemory memory;
  auto out = memory.allocate(static_cast<std::uint64_t>(threads) * 8, "out");
  auto r = run(*m, "k", {{1, 1, 1}, {static_cast<std::uint32_t>(threads), 1, 1}}, {KernelArg::of(out)}, memory);
  EXPECT_TRUE(r) << r.error().render();
  if (!r) return {};
  for (const auto& d : r->diagnostics) ADD_FAILURE() << d.message;
  return read_buffer<std::uint64_t>(memory, out);
}

TEST(Semantics, TritonSpacingAndSingleElementVectors) {
  auto v = run_body(
      "\t{\n\t.reg .pred %p9;\n\tsetp.eq.u32 %p9, %r0, 3;\n\tselp.b32 %r1, 7, 9, %p9;\n\t}\n"
      "\tmov.u64 %rd3, 0x0;\n\tcvt.u64.u32 %rd3, %r1;\n"
      "\t@%p0 bra $L__skip;\n\tst.global.b64 [ %rd1 + 0 ], { %rd3 };\n$L__skip:");
  ASSERT_EQ(v.size(), 32u);
  EXPECT_EQ(v[3], 7u);
  EXPECT_EQ(v[4], 9u);
}

TEST(Semantics, CarryChainsAndWideMultiplies) {
  // (2^32 - 1 + lane) as a 64-bit sum through add.cc/addc; mul.hi.s64 of negatives.
  auto v = run_body(
      "\tmov.u32 %r1, -1;\n\tadd.cc.u32 %r2, %r1, %r0;\n\taddc.u32 %r3, 0, 0;\n"
      "\tmov.b64 %rd3, {%r2, %r3};\n\tst.global.u64 [%rd1], %rd3;");
  for (int l = 0; l < 32; ++l) EXPECT_EQ(v[static_cast<std::size_t>(l)], 0xffffffffull + static_cast<unsigned>(l)) << l;
  auto h = run_body("\tmov.u64 %rd3, -3;\n\tcvt.u64.u32 %rd4, %r0;\n\tmul.hi.s64 %rd5, %rd3, %rd4;\n\tst.global.u64 [%rd1], %rd5;");
  EXPECT_EQ(h[5], ~0ull);  // -15 >> 64 is -1
  EXPECT_EQ(h[0], 0u);
}

TEST(Semantics, ConversionsRoundAndSaturate) {
  auto v = run_body(
      "\tcvt.rn.f32.u32 %f1, %r0;\n\tmul.f32 %f2, %f1, 0f3F000000;\n"  // lane / 2
      "\tadd.f32 %f3, %f2, 0fBF800000;\n"                               // - 1
      "\tcvt.rni.s32.f32 %r1, %f3;\n\tcvt.rmi.s32.f32 %r2, %f3;\n\tcvt.rpi.s32.f32 %r3, %f3;\n"
      "\tcvt.rzi.u32.f32 %r4, %f3;\n"  // saturates negatives to 0
      "\tand.b32 %r1, %r1, 255;\n\tand.b32 %r2, %r2, 255;\n\tand.b32 %r3, %r3, 255;\n"
      "\tshl.b32 %r2, %r2, 8;\n\tshl.b32 %r3, %r3, 16;\n\tshl.b32 %r4, %r4, 24;\n"
      "\tor.b32 %r5, %r1, %r2;\n\tor.b32 %r5, %r5, %r3;\n\tor.b32 %r5, %r5, %r4;\n"
      "\tcvt.u64.u32 %rd3, %r5;\n\tst.global.u64 [%rd1], %rd3;");
  auto unpack = [](std::uint64_t x, int k) { return static_cast<int>(static_cast<std::int8_t>(x >> (8 * k))); };
  // lane 1: -0.5 -> rni 0 (ties to even), rmi -1, rpi 0, rzi.u32 0
  EXPECT_EQ(unpack(v[1], 0), 0);
  EXPECT_EQ(unpack(v[1], 1), -1);
  EXPECT_EQ(unpack(v[1], 2), 0);
  EXPECT_EQ(unpack(v[1], 3), 0);
  // lane 5: 1.5 -> rni 2, rmi 1, rpi 2, rzi 1
  EXPECT_EQ(unpack(v[5], 0), 2);
  EXPECT_EQ(unpack(v[5], 1), 1);
  EXPECT_EQ(unpack(v[5], 2), 2);
  EXPECT_EQ(unpack(v[5], 3), 1);
  auto s = run_body("\tcvt.s64.s32 %rd3, %r0;\n\tsub.s64 %rd4, 100, %rd3;\n\tmul.lo.s64 %rd4, %rd4, 3;\n"
                    "\tcvt.sat.s8.s64 %rs1, %rd4;\n\tcvt.s64.s8 %rd5, %rs1;\n\tst.global.u64 [%rd1], %rd5;");
  EXPECT_EQ(static_cast<std::int64_t>(s[0]), 127);   // 300 saturates
  EXPECT_EQ(static_cast<std::int64_t>(s[31]), 127);  // 207
}

TEST(Semantics, ShuffleModes) {
  auto v = run_body(
      "\tshfl.sync.up.b32 %r1|%p1, %r0, 1, 0, -1;\n"       // lane - 1, lane 0 keeps its own
      "\tshfl.sync.bfly.b32 %r2, %r0, 3, 31, -1;\n"        // lane ^ 3
      "\tshfl.sync.idx.b32 %r3, %r0, 2, 0x181f, -1;\n"     // width 8: lane (l & ~7) + 2
      "\tselp.u32 %r4, 1, 0, %p1;\n"
      "\tshl.b32 %r3, %r3, 8;\n\tshl.b32 %r2, %r2, 16;\n\tshl.b32 %r4, %r4, 24;\n"
      "\tor.b32 %r5, %r1, %r2;\n\tor.b32 %r5, %r5, %r3;\n\tor.b32 %r5, %r5, %r4;\n"
      "\tcvt.u64.u32 %rd3, %r5;\n\tst.global.u64 [%rd1], %rd3;");
  for (unsigned l = 0; l < 32; ++l) {
    std::uint64_t x = v[l];
    EXPECT_EQ(x & 0xff, l == 0 ? 0u : l - 1) << l;
    EXPECT_EQ((x >> 8) & 0xff, (l & ~7u) | 2u) << l;
    EXPECT_EQ((x >> 16) & 0xff, l ^ 3u) << l;
    EXPECT_EQ((x >> 24) & 0xff, l == 0 ? 0u : 1u) << l;
  }
}

TEST(Semantics, InitializerAddressesAndTestp) {
  auto v = run_body(
      "\tmov.u64 %rd3, ptrs;\n\tld.global.u64 %rd4, [%rd3+8];\n\tld.global.u32 %r1, [%rd4+4];\n"
      "\tcvt.rn.f32.u32 %f1, %r0;\n\tdiv.rn.f32 %f2, %f1, 0f00000000;\n"  // lane/0: inf, 0/0: nan
      "\ttestp.infinite.f32 %p1, %f2;\n\ttestp.notanumber.f32 %p2, %f2;\n"
      "\tselp.u32 %r2, 100, 0, %p1;\n\tselp.u32 %r3, 1000, 0, %p2;\n\tadd.s32 %r1, %r1, %r2;\n\tadd.s32 %r1, %r1, %r3;\n"
      "\tcvt.u64.u32 %rd5, %r1;\n\tst.global.u64 [%rd1], %rd5;",
      ".global .align 4 .u32 table[2] = {5, 6};\n.global .align 8 .u64 ptrs[2] = {generic(table), table};");
  EXPECT_EQ(v[0], 1006u);
  EXPECT_EQ(v[1], 106u);
}

// Function addresses: a table of function pointers (the FunctionPointers sample's
// `.global .u64 p = f;`, vtables) and `mov.u64 %rd, f` read the same nonzero value, one
// per function.
TEST(Semantics, FunctionAddresses) {
  auto v = run_body(
      "\tmov.u64 %rd3, fptrs;\n\tld.global.u64 %rd4, [%rd3+8];\n\tmov.u64 %rd5, f2;\n\tld.global.u64 %rd6, [%rd3];\n"
      "\tsetp.eq.u64 %p1, %rd4, %rd5;\n\tsetp.ne.and.u64 %p1, %rd6, %rd5, %p1;\n\tsetp.ne.and.u64 %p1, %rd6, 0, %p1;\n"
      "\tselp.u64 %rd7, 1, 0, %p1;\n\tst.global.u64 [%rd1], %rd7;",
      ".func f1();\n.func f2();\n.global .align 8 .u64 fptrs[2] = {f1, f2};");
  EXPECT_EQ(v[0], 1u);
}

// bmsk (cub's radix sort in the particles sample uses bmsk.clamp): lane l makes the
// mask of a = l / 4 * 5, b = l % 4 * 6 + (l >= 24 ? 20 : 0).
TEST(Semantics, BitMask) {
  auto v = run_body(
      "\tshr.u32 %r1, %r0, 2;\n\tmul.lo.u32 %r1, %r1, 5;\n\tand.b32 %r2, %r0, 3;\n\tmul.lo.u32 %r2, %r2, 6;\n"
      "\tsetp.ge.u32 %p1, %r0, 24;\n\t@%p1 add.u32 %r2, %r2, 20;\n"
      "\tbmsk.clamp.b32 %r3, %r1, %r2;\n\tbmsk.wrap.b32 %r4, %r1, %r2;\n"
      "\tmov.b64 %rd3, {%r3, %r4};\n\tst.global.u64 [%rd1], %rd3;");
  for (std::uint32_t l = 0; l < 32; ++l) {
    const std::uint32_t a = l / 4 * 5, b = l % 4 * 6 + (l >= 24 ? 20 : 0);
    // Brute force: bit i set when a <= i < a + b (clamp: a < 32, b capped to 32; wrap: mod 32).
    auto expect = [](std::uint32_t pos, std::uint32_t width, bool clamp) {
      if (clamp && pos >= 32) return 0u;
      if (!clamp) {
        pos %= 32;
        width %= 32;
      }
      std::uint32_t m = 0;
      for (std::uint32_t i = pos; i < 32 && i < pos + width; ++i) m |= 1u << i;
      return m;
    };
    EXPECT_EQ(static_cast<std::uint32_t>(v[l]), expect(a, b, true)) << "clamp lane " << l;
    EXPECT_EQ(static_cast<std::uint32_t>(v[l] >> 32), expect(a, b, false)) << "wrap lane " << l;
  }
  auto one = run_body("\tbmsk.wrap.b32 %r3, 1, 2;\n\tcvt.u64.u32 %rd3, %r3;\n\tst.global.u64 [%rd1], %rd3;");
  EXPECT_EQ(one[0], 6u);  // the ISA's example
}

TEST(Semantics, NamedBarrierWithCount) {
  // Warps 0 and 1 sync on barrier 1 (64 threads); warp 2 never does.
  auto v = run_body(
      "\tsetp.ge.u32 %p1, %r0, 64;\n\t@%p1 bra $L__out;\n\tbar.sync 1, 64;\n"
      "$L__out:\n\tcvt.u64.u32 %rd3, %r0;\n\tst.global.u64 [%rd1], %rd3;",
      "", 96);
  EXPECT_EQ(v[95], 95u);
}

// fp8 pairs as Triton converts to and from them (an fp8 GEMM's output, fp8 inputs widened):
// f32 pairs to e4m3x2 / e5m2x2 rounding to nearest even and saturating, and back to f16x2.
TEST(Semantics, Fp8PairConversions) {
  // Lane l converts a = l * 0.3 - 4 (upper byte) and b = (l - 16) * 40 (lower byte).
  auto v = run_body(
      "\tcvt.rn.f32.u32 %f1, %r0;\n\tmul.f32 %f2, %f1, 0f3E99999A;\n\tsub.f32 %f2, %f2, 0f40800000;\n"
      "\tsub.f32 %f3, %f1, 0f41800000;\n\tmul.f32 %f3, %f3, 0f42200000;\n"
      "\tcvt.rn.satfinite.e4m3x2.f32 %rs1, %f2, %f3;\n\tcvt.rn.satfinite.e5m2x2.f32 %rs2, %f2, %f3;\n"
      "\tcvt.rn.f16x2.e4m3x2 %r1, %rs1;\n\tcvt.rn.f16x2.e5m2x2 %r2, %rs2;\n"
      "\tcvt.u64.u16 %rd3, %rs1;\n\tcvt.u64.u16 %rd4, %rs2;\n\tshl.b64 %rd4, %rd4, 16;\n\tor.b64 %rd3, %rd3, %rd4;\n"
      "\tcvt.u64.u32 %rd5, %r1;\n\tshl.b64 %rd5, %rd5, 32;\n\tor.b64 %rd3, %rd3, %rd5;\n"
      "\tst.global.u64 [%rd1], %rd3;");
  ASSERT_EQ(v.size(), 32u);
  // Brute force: the nearest fp8 value (ties: even code), saturating at the largest finite.
  auto nearest = [](ptx::TensorType t, float x) {
    const std::uint32_t top = t == ptx::TensorType::E4M3 ? 0x7eu : 0x7bu;
    std::uint32_t best = 0;
    double best_d = 1e300;
    for (std::uint32_t c = 0; c <= top; ++c) {
      const double d = std::fabs(std::fabs(static_cast<double>(x)) - static_cast<double>(decode_float(t, c)));
      if (d < best_d || (d == best_d && (c & 1u) == 0)) { best = c; best_d = d; }
    }
    return (std::signbit(x) ? 0x80u : 0u) | best;
  };
  for (int l = 0; l < 32; ++l) {
    const float a = static_cast<float>(l) * 0x1.333334p-2f - 4.0f, b = (static_cast<float>(l) - 16.0f) * 40.0f;
    const std::uint64_t got = v[static_cast<std::size_t>(l)];
    const std::uint32_t e4 = nearest(ptx::TensorType::E4M3, a) << 8 | nearest(ptx::TensorType::E4M3, b);
    EXPECT_EQ(got & 0xffffu, e4 & 0xffffu) << l << " " << a << " " << b;  // e4m3: b = 600 saturates at 448 (0x7e)
    if (l == 31) EXPECT_EQ(got & 0xffu, 0x7eu);
    const std::uint32_t e5 = nearest(ptx::TensorType::E5M2, a) << 8 | nearest(ptx::TensorType::E5M2, b);
    EXPECT_EQ((got >> 16) & 0xffffu, e5 & 0xffffu) << l;
    // Widened back: each byte's value exactly, in f16.
    const std::uint32_t halves = static_cast<std::uint32_t>(got >> 32);
    EXPECT_EQ(half_to_float(static_cast<std::uint16_t>(halves >> 16)), decode_float(ptx::TensorType::E4M3, e4 >> 8)) << l;
    EXPECT_EQ(half_to_float(static_cast<std::uint16_t>(halves)), decode_float(ptx::TensorType::E4M3, e4 & 0xffu)) << l;
  }
}

TEST(Semantics, PermuteModesAndMul24) {
  auto v = run_body(
      "\tmov.u32 %r1, 0x33221100;\n\tmov.u32 %r2, 0x77665544;\n"
      "\tprmt.b32.f4e %r3, %r1, %r2, 1;\n\tprmt.b32.b4e %r4, %r1, %r2, 0;\n"
      "\tmov.u32 %r5, 0x01000003;\n\tmul24.lo.u32 %r6, %r5, 2;\n"
      "\tmov.u32 %r7, 0xffffff;\n\tmul24.hi.u32 %r8, %r7, %r7;\n"
      "\tsetp.eq.u32 %p1, %r0, 0;\n\tselp.b32 %r9, %r3, %r4, %p1;\n"
      "\tsetp.eq.u32 %p2, %r0, 2;\n\tselp.b32 %r9, %r6, %r9, %p2;\n"
      "\tsetp.eq.u32 %p3, %r0, 3;\n\tselp.b32 %r9, %r8, %r9, %p3;\n"
      "\tcvt.u64.u32 %rd3, %r9;\n\tst.global.u64 [%rd1], %rd3;");
  EXPECT_EQ(v[0], 0x44332211u);
  EXPECT_EQ(v[1], 0x55667700u);
  EXPECT_EQ(v[2], 6u);
  EXPECT_EQ(v[3], 0xfffffe00u);
}

// dp4a/dp2a against a brute-force dot product, on per-lane values that cover every sign.
TEST(Semantics, IntegerDotProductsMatchBruteForce) {
  auto lane_a = [](std::uint32_t l) { return l * 0x9E3779B9u + 0x7F4A7C15u; };
  auto lane_b = [](std::uint32_t l) { return l * 0x85EBCA6Bu ^ 0xC2B2AE35u; };
  auto field = [](std::uint32_t v, int i, int bits, bool s) {
    std::int64_t f = (v >> (i * bits)) & ((1u << bits) - 1u);
    return s && (f >> (bits - 1)) ? f - (std::int64_t{1} << bits) : f;
  };
  const char* forms[] = {"dp4a.s32.s32", "dp4a.u32.u32", "dp4a.s32.u32", "dp4a.u32.s32",
                         "dp2a.lo.s32.s32", "dp2a.hi.u32.s32", "dp2a.lo.u32.u32", "dp2a.hi.s32.u32"};
  for (std::string form : forms) {
    SCOPED_TRACE(form);
    auto v = run_body("\tmad.lo.u32 %r1, %r0, 0x9E3779B9, 0x7F4A7C15;\n\tmul.lo.u32 %r2, %r0, 0x85EBCA6B;\n"
                      "\txor.b32 %r2, %r2, 0xC2B2AE35;\n\tmov.u32 %r3, -1000;\n\t" +
                      form + " %r4, %r1, %r2, %r3;\n\tcvt.u64.u32 %rd3, %r4;\n\tst.global.u64 [%rd1], %rd3;");
    ASSERT_EQ(v.size(), 32u);
    const bool four = form.starts_with("dp4a");
    const bool a_signed = form.find(four ? "dp4a.s32" : ".s32.") != std::string::npos;
    const bool b_signed = form.ends_with(".s32");
    const int first = form.find(".hi") != std::string::npos ? 2 : 0;
    for (std::uint32_t l = 0; l < 32; ++l) {
      std::int64_t sum = -1000;
      for (int i = 0; i < (four ? 4 : 2); ++i)
        sum += field(lane_a(l), i, four ? 8 : 16, a_signed) * field(lane_b(l), first + i, 8, b_signed);
      EXPECT_EQ(v[l], static_cast<std::uint32_t>(sum)) << "lane " << l;
    }
  }
}

TEST(Semantics, HalfPairComparisonsMatchBruteForce) {
  // Lane l compares {l - 16, 3 - l} (low, high half) with {-3, 3} in f16 and bf16; setp writes
  // the low halves' result to p and the high halves' to q, set one mask or 1.0 per half.
  auto pair = [](bool bf, float lo, float hi) {
    auto h = [bf](float x) { return bf ? emu::float_to_bf16(x) : emu::float_to_half(x); };
    return static_cast<std::uint32_t>(h(lo)) | static_cast<std::uint32_t>(h(hi)) << 16;
  };
  for (bool bf : {false, true}) {
    const std::string t = bf ? "bf16x2" : "f16x2";
    SCOPED_TRACE(t);
    const std::uint32_t bound = pair(bf, -3.0f, 3.0f);
    // a = lane's pair, built from two f32 conversions in the kernel.
    const std::string cvt = "\tcvt.rn.f32.s32 %f1, %r1;\n\tcvt.rn.f32.s32 %f2, %r2;\n"
                            "\tcvt.rn." + t + ".f32 %r3, %f2, %f1;\n";
    auto v = run_body("\tadd.s32 %r1, %r0, -16;\n\tsub.s32 %r2, 3, %r0;\n" + cvt +
                      "\tsetp.lt." + t + " %p1|%p2, %r3, " + std::to_string(bound) + ";\n"
                      "\tselp.u32 %r4, 1, 0, %p1;\n\tselp.u32 %r5, 2, 0, %p2;\n"
                      "\tset.le.u32." + t + " %r6, %r3, " + std::to_string(bound) + ";\n"
                      "\tset.gt." + t + "." + t + " %r7, %r3, " + std::to_string(bound) + ";\n"
                      "\tor.b32 %r4, %r4, %r5;\n\tmov.b64 %rd3, {%r6, %r7};\n\tshl.b64 %rd3, %rd3, 2;\n"
                      "\tcvt.u64.u32 %rd4, %r4;\n\tor.b64 %rd3, %rd3, %rd4;\n\tst.global.u64 [%rd1], %rd3;");
    ASSERT_EQ(v.size(), 32u);
    const std::uint64_t one = bf ? 0x3f80u : 0x3c00u;
    for (int l = 0; l < 32; ++l) {
      const float lo = static_cast<float>(l - 16), hi = static_cast<float>(3 - l);
      const std::uint64_t preds = (lo < -3.0f ? 1u : 0u) | (hi < 3.0f ? 2u : 0u);
      const std::uint64_t mask = (lo <= -3.0f ? 0xffffu : 0u) | (hi <= 3.0f ? 0xffff0000u : 0u);
      const std::uint64_t ones = (lo > -3.0f ? one : 0u) | (hi > 3.0f ? one << 16 : 0u);
      EXPECT_EQ(v[static_cast<std::size_t>(l)], preds | ((mask | ones << 32) << 2)) << "lane " << l;
    }
  }
}

TEST(Semantics, DirectedRounding) {
  // 1 + 2^-30 is not a float: rn gives 1, rp the next float up.
  auto v = run_body("\tadd.rp.f32 %f1, 0f3F800000, 0f30800000;\n\tadd.rn.f32 %f2, 0f3F800000, 0f30800000;\n"
                    "\tmov.b32 %r1, %f1;\n\tmov.b32 %r2, %f2;\n\tmov.b64 %rd3, {%r1, %r2};\n\tst.global.u64 [%rd1], %rd3;");
  EXPECT_EQ(v[0] & 0xffffffffu, 0x3f800001u);
  EXPECT_EQ(v[0] >> 32, 0x3f800000u);
}

TEST(Semantics, ProducerConsumerNamedBarriers) {
  // Warp 0 writes shared memory and arrives at barrier 1; warp 1 waits there, then reads.
  auto v = run_body(
      "\tmov.u32 %r1, buf;\n\tand.b32 %r2, %r0, 31;\n\tshl.b32 %r3, %r2, 2;\n\tadd.s32 %r4, %r1, %r3;\n"
      "\tsetp.ge.u32 %p1, %r0, 32;\n\t@%p1 bra $L_consumer;\n"
      "\tmul.lo.s32 %r5, %r0, 7;\n\tst.shared.u32 [%r4], %r5;\n\tbar.arrive 1, 64;\n\tbra.uni $L_done;\n"
      "$L_consumer:\n\tbar.sync 1, 64;\n\tld.shared.u32 %r5, [%r4];\n"
      "$L_done:\n\tcvt.u64.u32 %rd3, %r5;\n\tst.global.u64 [%rd1], %rd3;",
      ".shared .align 4 .b8 buf[128];", 64);
  for (unsigned l = 0; l < 64; ++l) EXPECT_EQ(v[l], (l % 32) * 7) << l;
}

TEST(Semantics, DivergentBarrierIsDiagnosedNotHung) {
  // Only odd lanes reach the first barrier (undefined behavior in CUDA): a warning, and on.
  const char* src = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry k()
{
	.reg .pred %p<2>;
	.reg .b32 %r<4>;
	mov.u32 %r0, %tid.x;
	and.b32 %r1, %r0, 1;
	setp.eq.u32 %p1, %r1, 0;
	@%p1 bra $L_join;
	bar.sync 0;
$L_join:
	bar.sync 0;
	ret;
}
)";
  auto m = ptx::parse(src, "b.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  auto r = run(*m, "k", {{1, 1, 1}, {64, 1, 1}}, {}, memory);
  ASSERT_TRUE(r) << r.error().render();
  EXPECT_FALSE(r->failed());
  ASSERT_FALSE(r->diagnostics.empty());
  EXPECT_EQ(r->diagnostics[0].kind, Diagnostic::Kind::BarrierDivergence);
  EXPECT_NE(r->diagnostics[0].message.find("32 of 64 threads of block (0,0,0) arrived"), std::string::npos)
      << r->diagnostics[0].message;
}

TEST(Semantics, ImmediatesInVectorOperands) {
  auto v = run_body("\tst.global.v2.u32 [%rd1], {%r0, 0x2a};");
  EXPECT_EQ(v[3], 3u | (42ull << 32));
  auto f = run_body("\tst.global.v2.f32 [%rd1], {0f3F800000, -2.0};");
  EXPECT_EQ(f[0], 0x3f800000ull | (0xc0000000ull << 32));
}

TEST(Semantics, ClockAdvances) {
  auto v = run_body("\tmov.u64 %rd3, %clock64;\n$L_spin:\n\tmov.u64 %rd4, %clock64;\n\tsub.s64 %rd5, %rd4, %rd3;\n"
                    "\tsetp.lt.s64 %p1, %rd5, 1000;\n\t@%p1 bra $L_spin;\n\tst.global.u64 [%rd1], 1;");
  EXPECT_EQ(v[7], 1u);
}

// ldmatrix then stmatrix with the same row addresses is the identity, with or without
// .trans; ldmatrix.trans of a matrix equals ldmatrix of its transpose.
TEST(Semantics, MatrixLoadStoreRoundTrip) {
  std::string decls = ".shared .align 16 .b8 src[512];\n.shared .align 16 .b8 dst[512];\n.shared .align 16 .b8 dst2[512];";
  auto v = run_body(
      "\tmov.u32 %r1, src;\n\tmov.u32 %r2, dst;\n\tmov.u32 %r20, dst2;\n\tshl.b32 %r3, %r0, 4;\n"
      "\tadd.s32 %r4, %r1, %r3;\n\tadd.s32 %r5, %r2, %r3;\n\tadd.s32 %r21, %r20, %r3;\n"
      "\tmul.lo.s32 %r6, %r0, 1000;\n\tadd.s32 %r7, %r6, 1;\n\tadd.s32 %r8, %r6, 2;\n\tadd.s32 %r9, %r6, 3;\n"
      "\tst.shared.v4.u32 [%r4], {%r6, %r7, %r8, %r9};\n"
      "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r10, %r11, %r12, %r13}, [%r4];\n"
      "\tstmatrix.sync.aligned.m8n8.x4.shared.b16 [%r5], {%r10, %r11, %r12, %r13};\n"
      "\tldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r10, %r11, %r12, %r13}, [%r4];\n"
      "\tstmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%r21], {%r10, %r11, %r12, %r13};\n"
      "\tld.shared.v4.u32 {%r14, %r15, %r16, %r17}, [%r5];\n"
      "\tld.shared.v4.u32 {%r22, %r23, %r24, %r25}, [%r21];\n"
      "\tsetp.eq.u32 %p1, %r14, %r6;\n\tsetp.eq.and.u32 %p1, %r17, %r9, %p1;\n"
      "\tsetp.eq.and.u32 %p1, %r22, %r6, %p1;\n\tsetp.eq.and.u32 %p1, %r25, %r9, %p1;\n"
      "\tselp.u64 %rd3, 1, 0, %p1;\n\tst.global.u64 [%rd1], %rd3;",
      decls);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(v[static_cast<std::size_t>(l)], 1u) << l;
}

// A warp that spins on memory another warp sets (as cooperative groups' barrier_wait
// does across warps) must let that warp run: warp 0 waits for warp 1's flag, then stores it.
TEST(Semantics, SpinWaitOnAnotherWarpEnds) {
  auto v = run_body(
      "\tmov.u64 %rd4, flag;\n\tsetp.ge.u32 %p1, %r0, 32;\n\t@%p1 bra $L__producer;\n"
      "$L__spin:\n\tld.volatile.global.u32 %r2, [%rd4];\n\tsetp.eq.u32 %p2, %r2, 0;\n\t@%p2 bra $L__spin;\n"
      "\tcvt.u64.u32 %rd3, %r2;\n\tst.global.u64 [%rd1], %rd3;\n\tbra $L__end;\n"
      "$L__producer:\n\tst.volatile.global.u32 [%rd4], 77;\n$L__end:",
      ".global .align 4 .u32 flag;", 64);
  ASSERT_EQ(v.size(), 64u);
  for (int l = 0; l < 32; ++l) EXPECT_EQ(v[static_cast<std::size_t>(l)], 77u) << l;
}

}  // namespace
}  // namespace warpscope::emu
