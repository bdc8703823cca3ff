// mma_test.cc: mma.sync and wmma products through the emulator against a brute-force
// matrix product, per shape and type.
//
// mma.sync: random matrices A, B, C -> each lane's fragment registers (mma_fragments.h,
// checked against the PTX ISA in mma_fragments_test.cc) -> a one-warp kernel loads them,
// runs the mma and stores D's fragment -> D back to a matrix, against C + A*B computed
// here in double. Values are chosen so that every sum is exact (so any summation order
// gives the same answer), except where a test says otherwise.
// wmma: matrices in memory, loaded, multiplied and stored by the kernel: no fragment
// layout is assumed at all, so loads, products and stores must agree with each other.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>

#include "emu/emu_test_util.h"
#include "emu/mma_fragments.h"
#include "emu/tensor_values.h"
#include "emu/tensor_test_util.h"

namespace warpscope::emu {
namespace {

using ptx::TensorType;
using T = TensorType;
using testing::Element;
using testing::Matrix;
using testing::encode_value;
using testing::make_buffer;
using testing::random_matrix;
using testing::read_buffer;

// Register words of every lane: [lane * registers + r].
std::vector<std::uint64_t> pack(const FragmentLayout& f, Matrix& m) {
  std::vector<std::uint64_t> regs(static_cast<std::size_t>(32 * f.registers()), 0);
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < f.elements; ++e) {
      const auto& c = f.at(lane, e);
      std::uint64_t bits = m.at(c.row, c.col).bits;
      if (f.bits < 64) bits &= (1ull << f.bits) - 1;
      regs[static_cast<std::size_t>(lane * f.registers() + e / f.per_register())] |=
          f.bits == 64 ? bits : bits << ((e % f.per_register()) * f.bits);
    }
  return regs;
}

// A one-warp kernel: each operand's registers loaded from its buffer (lane-major), the
// instruction, D stored.
std::string fragment_kernel(const std::string& instruction, int na, int nb, int nc, int nd, bool wide_regs) {
  const std::string ty = wide_regs ? "b64" : "b32";
  const int w = wide_regs ? 8 : 4;
  std::string s = ".version 8.5\n.target sm_90\n.address_size 64\n"
                  ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
                  "\t.reg .b32 %r<4>;\n\t.reg .b64 %rd<16>;\n";
  s += "\t.reg ." + ty + " %a<" + std::to_string(na) + ">;\n\t.reg ." + ty + " %b<" + std::to_string(nb) + ">;\n";
  s += "\t.reg ." + ty + " %c<" + std::to_string(nc) + ">;\n\t.reg ." + ty + " %d<" + std::to_string(nd) + ">;\n";
  s += "\tmov.u32 %r1, %tid.x;\n";
  const char* names[4] = {"a", "b", "c", "d"};
  const int counts[4] = {na, nb, nc, nd};
  const char* params[4] = {"pa", "pb", "pc", "pd"};
  for (int o = 0; o < 4; ++o) {
    s += "\tld.param.u64 %rd" + std::to_string(o) + ", [" + params[o] + "];\n";
    s += "\tmul.wide.u32 %rd" + std::to_string(4 + o) + ", %r1, " + std::to_string(counts[o] * w) + ";\n";
    s += "\tadd.s64 %rd" + std::to_string(8 + o) + ", %rd" + std::to_string(o) + ", %rd" + std::to_string(4 + o) + ";\n";
  }
  for (int o = 0; o < 3; ++o)
    for (int i = 0; i < counts[o]; ++i)
      s += "\tld.global." + ty + " %" + names[o] + std::to_string(i) + ", [%rd" + std::to_string(8 + o) + "+" +
           std::to_string(i * w) + "];\n";
  s += "\t" + instruction + "\n";
  for (int i = 0; i < nd; ++i)
    s += "\tst.global." + ty + " [%rd11+" + std::to_string(i * w) + "], %d" + std::to_string(i) + ";\n";
  s += "\tret;\n}\n";
  return s;
}

std::string vec(const std::string& name, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", %" : "%") + name + std::to_string(i);
  return s + "}";
}

template <class W>
std::vector<W> narrow(const std::vector<std::uint64_t>& v) {
  return std::vector<W>(v.begin(), v.end());
}

// Runs `src` with the four operand buffers; returns D's register words.
std::vector<std::uint64_t> run_kernel(const std::string& src, const std::vector<std::uint64_t> (&ops)[3], int nd, bool wide,
                                      std::vector<Diagnostic>* diagnostics = nullptr) {
  auto m = ptx::parse(src, "mma.ptx");
  EXPECT_TRUE(m) << m.error().render() << "\n" << src;
  if (!m) return {};
  GlobalMemory memory;
  std::vector<KernelArg> args;
  for (const auto& o : ops)
    args.push_back(KernelArg::of(wide ? make_buffer(memory, o, "op") : make_buffer(memory, narrow<std::uint32_t>(o), "op")));
  const std::uint64_t d = memory.allocate(static_cast<std::uint64_t>(32 * nd * (wide ? 8 : 4)), "d");
  args.push_back(KernelArg::of(d));
  auto r = run(*m, "k", {{1, 1, 1}, {32, 1, 1}}, args, memory);
  EXPECT_TRUE(r) << r.error().render();
  if (!r) return {};
  if (diagnostics != nullptr) {
    *diagnostics = r->diagnostics;
  } else {
    for (const auto& diag : r->diagnostics) ADD_FAILURE() << diag.message;
  }
  if (wide) return read_buffer<std::uint64_t>(memory, d);
  auto words = read_buffer<std::uint32_t>(memory, d);
  return {words.begin(), words.end()};
}

struct Case {
  int m, n, k;
  TensorType d, a, b, c;
  ptx::MatrixLayout la = ptx::MatrixLayout::Row, lb = ptx::MatrixLayout::Col;
  bool satfinite = false;
};

std::string layout_name(ptx::MatrixLayout l) { return l == ptx::MatrixLayout::Row ? "row" : "col"; }

void check_mma(const Case& c, unsigned seed) {
  ptx::TensorInfo info;
  info.m = static_cast<std::uint16_t>(c.m);
  info.n = static_cast<std::uint16_t>(c.n);
  info.k = static_cast<std::uint16_t>(c.k);
  info.types = {c.d, c.a, c.b, c.c};
  info.ntypes = 4;
  info.layout_a = c.la;
  info.layout_b = c.lb;
  auto la = mma_layout(info, MatrixOperand::A);
  auto lb = mma_layout(info, MatrixOperand::B);
  auto lc = mma_layout(info, MatrixOperand::C);
  ptx::TensorInfo dinfo = info;
  dinfo.types[3] = c.d;
  auto ld = mma_layout(dinfo, MatrixOperand::C);
  ASSERT_TRUE(la && lb && lc && ld);
  std::mt19937 rng(seed);
  Matrix A = random_matrix(la->rows, la->cols, c.a, rng);
  Matrix B = random_matrix(lb->rows, lb->cols, c.b, rng);
  Matrix C = random_matrix(lc->rows, lc->cols, c.c, rng);
  const bool wide = c.a == T::F64;
  const std::vector<std::uint64_t> ops[3] = {pack(*la, A), pack(*lb, B), pack(*lc, C)};
  std::string text = "mma.sync.aligned." + shape_name(c.m, c.n, c.k) + "." + layout_name(c.la) + "." + layout_name(c.lb) +
                     (c.satfinite ? ".satfinite" : "") + "." + std::string(ptx::tensor_type_name(c.d)) + "." +
                     std::string(ptx::tensor_type_name(c.a)) + "." + std::string(ptx::tensor_type_name(c.b)) + "." +
                     std::string(ptx::tensor_type_name(c.c));
  const int na = la->registers(), nb = lb->registers(), nc = lc->registers(), nd = ld->registers();
  const std::string inst = text + " " + vec("d", nd) + ", " + vec("a", na) + ", " + vec("b", nb) + ", " + vec("c", nc) + ";";
  auto words = run_kernel(fragment_kernel(inst, na, nb, nc, nd, wide), ops, nd, wide);
  ASSERT_EQ(words.size(), static_cast<std::size_t>(32 * nd));
  int checked = 0;
  for (int lane = 0; lane < 32; ++lane)
    for (int e = 0; e < ld->elements; ++e) {
      const auto& at = ld->at(lane, e);
      double expect = C.at(at.row, at.col).value;
      for (int kk = 0; kk < la->cols; ++kk) expect += A.at(at.row, kk).value * B.at(kk, at.col).value;
      if (c.d == T::S32) {
        const auto wrapped = static_cast<std::int64_t>(expect);
        if (c.satfinite) expect = static_cast<double>(std::clamp<std::int64_t>(wrapped, INT32_MIN, INT32_MAX));
      }
      const std::uint64_t word = words[static_cast<std::size_t>(lane * nd + e / ld->per_register())];
      std::uint64_t bits = ld->bits == 64 ? word : (word >> ((e % ld->per_register()) * ld->bits)) & ((1ull << ld->bits) - 1);
      EXPECT_EQ(bits, encode_value(c.d, expect)) << text << " lane " << lane << " element " << e << " at (" << int(at.row)
                                                 << ", " << int(at.col) << ") expected " << expect;
      if (++checked > 64 && ::testing::Test::HasFailure()) return;
    }
}

TEST(MmaSync, EveryShapeAndTypeAgainstABruteForceProduct) {
  const std::vector<Case> cases = {
      {16, 8, 16, T::F32, T::F16, T::F16, T::F32},   {16, 8, 16, T::F16, T::F16, T::F16, T::F16},
      {16, 8, 16, T::F32, T::F16, T::F16, T::F16},   {16, 8, 16, T::F32, T::BF16, T::BF16, T::F32},
      {16, 8, 8, T::F32, T::F16, T::F16, T::F32},    {16, 8, 8, T::F16, T::F16, T::F16, T::F16},
      {16, 8, 8, T::F32, T::BF16, T::BF16, T::F32},  {16, 8, 4, T::F32, T::TF32, T::TF32, T::F32},
      {16, 8, 8, T::F32, T::TF32, T::TF32, T::F32},  {16, 8, 16, T::S32, T::S8, T::S8, T::S32},
      {16, 8, 16, T::S32, T::U8, T::S8, T::S32},     {16, 8, 32, T::S32, T::S8, T::U8, T::S32},
      {16, 8, 32, T::S32, T::U8, T::U8, T::S32},     {16, 8, 32, T::F32, T::E4M3, T::E4M3, T::F32},
      {16, 8, 32, T::F32, T::E5M2, T::E4M3, T::F32}, {16, 8, 16, T::F32, T::E4M3, T::E5M2, T::F32},
      {16, 8, 32, T::S32, T::S4, T::S4, T::S32},     {16, 8, 64, T::S32, T::U4, T::S4, T::S32},
      {8, 8, 16, T::S32, T::S8, T::S8, T::S32},      {8, 8, 32, T::S32, T::U4, T::U4, T::S32},
      {8, 8, 4, T::F64, T::F64, T::F64, T::F64},     {16, 8, 4, T::F64, T::F64, T::F64, T::F64},
      {16, 8, 8, T::F64, T::F64, T::F64, T::F64},    {16, 8, 16, T::F64, T::F64, T::F64, T::F64},
      {8, 8, 4, T::F32, T::F16, T::F16, T::F32, ptx::MatrixLayout::Row, ptx::MatrixLayout::Col},
      {8, 8, 4, T::F16, T::F16, T::F16, T::F16, ptx::MatrixLayout::Col, ptx::MatrixLayout::Row},
      {8, 8, 4, T::F32, T::F16, T::F16, T::F32, ptx::MatrixLayout::Col, ptx::MatrixLayout::Col},
      {16, 8, 32, T::S32, T::S8, T::S8, T::S32, ptx::MatrixLayout::Row, ptx::MatrixLayout::Col, true},
  };
  unsigned seed = 1;
  for (const Case& c : cases) {
    SCOPED_TRACE(shape_name(c.m, c.n, c.k) + " ." + std::string(ptx::tensor_type_name(c.a)));
    for (int rep = 0; rep < 3; ++rep) check_mma(c, seed++);
  }
}

TEST(MmaSync, Tf32IgnoresTheLow13BitsAndIntegersWrap) {
  // A = 1 + 2^-11 (not a tf32: the tensor core sees 1), B = 1: D = C + 8 * 1.
  Case c{16, 8, 8, T::F32, T::TF32, T::TF32, T::F32};
  ptx::TensorInfo info;
  info.m = 16;
  info.n = 8;
  info.k = 8;
  info.types = {T::F32, T::TF32, T::TF32, T::F32};
  info.ntypes = 4;
  auto la = mma_layout(info, MatrixOperand::A);
  auto lb = mma_layout(info, MatrixOperand::B);
  auto lc = mma_layout(info, MatrixOperand::C);
  Matrix A{16, 8, std::vector<Element>(128, Element{std::bit_cast<std::uint32_t>(1.0f + 0x1p-11f), 1.0})};
  Matrix B{8, 8, std::vector<Element>(64, Element{std::bit_cast<std::uint32_t>(1.0f), 1.0})};
  Matrix C{16, 8, std::vector<Element>(128, Element{0, 0})};
  const std::vector<std::uint64_t> ops[3] = {pack(*la, A), pack(*lb, B), pack(*lc, C)};
  auto words = run_kernel(fragment_kernel("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%d0, %d1, %d2, %d3}, "
                                          "{%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};",
                                          4, 2, 4, 4, false),
                          ops, 4, false);
  ASSERT_EQ(words.size(), 128u);
  for (std::uint64_t w : words) EXPECT_EQ(std::bit_cast<float>(static_cast<std::uint32_t>(w)), 8.0f);
  (void)c;
  // s8: 32 products of (-128 * -128) plus INT32_MAX wrap; .satfinite clamps.
  info.k = 32;
  info.types = {T::S32, T::S8, T::S8, T::S32};
  auto ia = mma_layout(info, MatrixOperand::A);
  auto ib = mma_layout(info, MatrixOperand::B);
  auto ic = mma_layout(info, MatrixOperand::C);
  Matrix IA{16, 32, std::vector<Element>(512, Element{0x80, -128})};
  Matrix IB{32, 8, std::vector<Element>(256, Element{0x80, -128})};
  Matrix IC{16, 8, std::vector<Element>(128, Element{0x7fffffff, 2147483647.0})};
  const std::vector<std::uint64_t> iops[3] = {pack(*ia, IA), pack(*ib, IB), pack(*ic, IC)};
  for (bool sat : {false, true}) {
    auto v = run_kernel(fragment_kernel(std::string("mma.sync.aligned.m16n8k32.row.col") + (sat ? ".satfinite" : "") +
                                            ".s32.s8.s8.s32 {%d0, %d1, %d2, %d3}, {%a0, %a1, %a2, %a3}, {%b0, %b1}, "
                                            "{%c0, %c1, %c2, %c3};",
                                        4, 2, 4, 4, false),
                        iops, 4, false);
    ASSERT_EQ(v.size(), 128u);
    const std::int64_t sum = 2147483647ll + 32ll * 16384;
    const auto expect = sat ? 2147483647u : static_cast<std::uint32_t>(static_cast<std::uint64_t>(sum));
    EXPECT_EQ(static_cast<std::uint32_t>(v[0]), expect) << (sat ? "satfinite" : "wrap");
  }
}

// The decoders the products use, against the reference conversion (f16: all 65536 values,
// subnormals, infinities and NaNs included) and the fp8 definitions (all 256 codes).
TEST(TensorValues, DecodersMatchTheirDefinitions) {
  for (std::uint32_t h = 0; h < 65536; ++h) {
    const float a = half_bits_to_float(h), b = half_to_float(static_cast<std::uint16_t>(h));
    if (std::isnan(b)) {
      EXPECT_TRUE(std::isnan(a)) << h;
    } else {
      EXPECT_EQ(std::bit_cast<std::uint32_t>(a), std::bit_cast<std::uint32_t>(b)) << h;
    }
  }
  for (std::uint32_t b = 0; b < 256; ++b) {
    const float e4 = decode_float(T::E4M3, b), e5 = decode_float(T::E5M2, b);
    if ((b & 0x7f) == 0x7f) {
      EXPECT_TRUE(std::isnan(e4)) << b;
    } else {
      EXPECT_EQ(static_cast<double>(e4), testing::e4m3_value(b)) << b;
    }
    if (((b >> 2) & 31) == 31) {
      EXPECT_TRUE(std::isnan(e5) || std::isinf(e5)) << b;
    } else {
      EXPECT_EQ(static_cast<double>(e5), testing::e5m2_value(b)) << b;
    }
  }
  EXPECT_EQ(decode_int(T::S4, 0x9), -7);
  EXPECT_EQ(decode_int(T::S8, 0x80), -128);
}

TEST(MmaSync, APartialWarpIsAnError) {
  std::string src = fragment_kernel("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%d0, %d1, %d2, %d3}, "
                                    "{%a0, %a1, %a2, %a3}, {%b0, %b1}, {%c0, %c1, %c2, %c3};",
                                    4, 2, 4, 4, false);
  // Lanes 16-31 leave first.
  const std::string guard = "\tsetp.ge.u32 %p1, %r1, 16;\n\t@%p1 ret;\n\tmma.sync";
  src.insert(src.find(".reg .b32 %r<4>;"), ".reg .pred %p<2>;\n\t");
  src.replace(src.find("\tmma.sync"), 9, guard);
  const std::vector<std::uint64_t> ops[3] = {std::vector<std::uint64_t>(128), std::vector<std::uint64_t>(64),
                                             std::vector<std::uint64_t>(128)};
  std::vector<Diagnostic> d;
  run_kernel(src, ops, 4, false, &d);
  ASSERT_FALSE(d.empty());
  EXPECT_NE(d[0].message.find("needs all 32 lanes"), std::string::npos) << d[0].message;
}

}  // namespace
}  // namespace warpscope::emu
