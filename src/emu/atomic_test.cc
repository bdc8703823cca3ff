// atomic_test.cc: the values every atom/red form leaves and returns (one warp, lanes in
// lane order), on shared and global memory.
#include <gtest/gtest.h>

#include "emu/emu_test_util.h"

namespace warpscope::emu {
namespace {

using testing::read_buffer;

struct Result {
  std::vector<std::uint64_t> out;   // per lane: what the body stored at [%rd1]
  std::vector<std::uint8_t> data;   // the 256-byte global buffer after the run
};

// Runs `body` on one warp: %rd1 = out + 8 * lane (global), %rd2 = the data buffer (global,
// 256 bytes, zeroed unless `init`), %r3 = the shared array `s` (256 bytes, zeroed), %r0 the
// lane. The body stores into [%rd1].
Result run_atomics(const std::string& body, std::vector<std::uint8_t> init = {}) {
  const std::string src =
      ".version 8.0\n.target sm_90\n.address_size 64\n"
      ".visible .entry k(.param .u64 k_param_0, .param .u64 k_param_1)\n{\n"
      "\t.reg .pred %p<8>;\n\t.reg .b16 %rs<16>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<16>;\n"
      "\t.reg .f32 %f<16>;\n\t.reg .f64 %fd<8>;\n"
      "\t.shared .align 16 .b8 s[256];\n"
      "\tld.param.u64 %rd0, [k_param_0];\n\tld.param.u64 %rd2, [k_param_1];\n\tmov.u32 %r0, %tid.x;\n"
      "\tmul.wide.u32 %rd3, %r0, 8;\n\tadd.s64 %rd1, %rd0, %rd3;\n\tmov.u32 %r3, s;\n"
      "\tsetp.lt.u32 %p7, %r0, 16;\n\tshl.b32 %r4, %r0, 4;\n\tadd.u32 %r4, %r4, %r3;\n"
      "\t@%p7 st.shared.v4.u32 [%r4], {0, 0, 0, 0};\n\tbar.sync 0;\n" +
      body + "\n\tret;\n}\n";
  auto m = ptx::parse(src, "t.ptx");
  EXPECT_TRUE(m) << m.error().render() << "\n" << m.error().source_line;
  if (!m) return {};
  GlobalMemory memory;
  auto out = memory.allocate(32 * 8, "out");
  init.resize(256, 0);
  auto data = memory.allocate(init, "data");
  auto r = run(*m, "k", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(out), KernelArg::of(data)}, memory);
  EXPECT_TRUE(r) << r.error().render();
  if (!r) return {};
  for (const auto& d : r->diagnostics) ADD_FAILURE() << d.message;
  return {read_buffer<std::uint64_t>(memory, out), read_buffer<std::uint8_t>(memory, data)};
}

std::uint16_t u16(const std::vector<std::uint8_t>& d, int at) {
  return static_cast<std::uint16_t>(d[static_cast<std::size_t>(at)] | d[static_cast<std::size_t>(at) + 1] << 8);
}
float f32(const std::vector<std::uint8_t>& d, int at) {
  float f;
  std::memcpy(&f, d.data() + at, 4);
  return f;
}
std::uint64_t u64(const std::vector<std::uint8_t>& d, int at) {
  std::uint64_t v;
  std::memcpy(&v, d.data() + at, 8);
  return v;
}

TEST(Atomics, HalfPairsAddInFloatAndReturnTheOldPair) {
  // 1.0h = 0x3c00, 2.0h = 0x4000: every lane adds {1, 2} to one word; lane l sees l * {1, 2}.
  Result r = run_atomics(
      "\tatom.global.add.noftz.f16x2 %r5, [%rd2], 0x40003c00;\n"
      "\tcvt.u64.u32 %rd4, %r5;\n\tst.global.u64 [%rd1], %rd4;");
  ASSERT_EQ(r.out.size(), 32u);
  EXPECT_EQ(u16(r.data, 0), emu::float_to_half(32.0f));
  EXPECT_EQ(u16(r.data, 2), emu::float_to_half(64.0f));
  EXPECT_EQ(r.out[5], (static_cast<std::uint64_t>(emu::float_to_half(10.0f)) << 16) | emu::float_to_half(5.0f));
}

TEST(Atomics, BfloatPairsAndScalarHalvesOnShared) {
  // bf16 1.0 = 0x3f80; then the shared word is copied out with a plain load.
  Result r = run_atomics(
      "\tatom.shared.add.noftz.bf16x2 %r5, [%r3], 0x3f803f80;\n"
      "\tmov.b16 %rs1, 0x3c00;\n\tatom.shared.add.noftz.f16 %rs2, [%r3+4], %rs1;\n"
      "\tmov.b16 %rs3, 0x4000;\n\tatom.shared.max.bf16 %rs4, [%r3+6], %rs3;\n"
      "\tbar.sync 0;\n\tld.shared.u64 %rd4, [%r3];\n\tst.global.u64 [%rd1], %rd4;");
  ASSERT_EQ(r.out.size(), 32u);
  const std::uint64_t v = r.out[0];
  EXPECT_EQ(static_cast<std::uint16_t>(v), emu::float_to_bf16(32.0f));
  EXPECT_EQ(static_cast<std::uint16_t>(v >> 16), emu::float_to_bf16(32.0f));
  EXPECT_EQ(static_cast<std::uint16_t>(v >> 32), emu::float_to_half(32.0f));
  EXPECT_EQ(static_cast<std::uint16_t>(v >> 48), 0x4000u);  // max(0, bf16 2.0)
}

TEST(Atomics, VectorFloatAddsTouchEveryElement) {
  Result r = run_atomics(
      "\tmov.f32 %f1, 0f3F800000;\n\tmov.f32 %f2, 0f40000000;\n\tmov.f32 %f3, 0f40400000;\n"
      "\tmov.f32 %f4, 0f40800000;\n"
      "\tatom.global.v4.f32.add {%f5, %f6, %f7, %f8}, [%rd2], {%f1, %f2, %f3, %f4};\n"
      "\tred.global.add.v2.f32 [%rd2+16], {%f1, %f2};\n"
      "\tmov.b32 %r5, %f8;\n\tcvt.u64.u32 %rd4, %r5;\n\tst.global.u64 [%rd1], %rd4;");
  ASSERT_EQ(r.out.size(), 32u);
  EXPECT_EQ(f32(r.data, 0), 32.0f);
  EXPECT_EQ(f32(r.data, 4), 64.0f);
  EXPECT_EQ(f32(r.data, 8), 96.0f);
  EXPECT_EQ(f32(r.data, 12), 128.0f);
  EXPECT_EQ(f32(r.data, 16), 32.0f);
  EXPECT_EQ(f32(r.data, 20), 64.0f);
  float old;
  const auto bits = static_cast<std::uint32_t>(r.out[3]);
  std::memcpy(&old, &bits, 4);
  EXPECT_EQ(old, 12.0f);  // lane 3 saw three adds of 4 before it
}

TEST(Atomics, EightHalvesInOneAtomic) {
  // red .v8.f16 adds {1, 2, ..., 8} (halves) per lane; atom .v8.bf16 returns the old eight.
  std::string set;
  for (int k = 0; k < 8; ++k)
    set += "\tmov.b16 %rs" + std::to_string(k) + ", " + std::to_string(emu::float_to_half(float(k + 1))) + ";\n";
  Result r = run_atomics(set +
      "\tred.global.add.noftz.v8.f16 [%rd2], {%rs0, %rs1, %rs2, %rs3, %rs4, %rs5, %rs6, %rs7};\n"
      "\tmov.b16 %rs8, 0x3f80;\n"
      "\tatom.global.acq_rel.gpu.add.noftz.v8.bf16 {%rs0, %rs1, %rs2, %rs3, %rs4, %rs5, %rs6, %rs7}, [%rd2+16], "
      "{%rs8, %rs8, %rs8, %rs8, %rs8, %rs8, %rs8, %rs8};\n"
      "\tcvt.u64.u16 %rd4, %rs7;\n\tst.global.u64 [%rd1], %rd4;");
  ASSERT_EQ(r.out.size(), 32u);
  for (int k = 0; k < 8; ++k) {
    EXPECT_EQ(u16(r.data, 2 * k), emu::float_to_half(32.0f * float(k + 1))) << k;
    EXPECT_EQ(u16(r.data, 16 + 2 * k), emu::float_to_bf16(32.0f)) << k;
  }
  EXPECT_EQ(r.out[5], emu::float_to_bf16(5.0f));  // lane 5 saw five adds of 1 before it
}

TEST(Atomics, SixteenBitCasAndSixtyFourBitOps) {
  // cas.b16: lane l expects l and writes l + 1, so every lane succeeds in lane order.
  Result r = run_atomics(
      "\tcvt.u16.u32 %rs1, %r0;\n\tadd.u16 %rs2, %rs1, 1;\n"
      "\tatom.global.cas.b16 %rs3, [%rd2], %rs1, %rs2;\n"
      "\tcvt.u64.u32 %rd5, %r0;\n"
      "\tatom.shared.add.u64 %rd6, [%r3+8], %rd5;\n"
      "\tatom.shared.min.u64 %rd7, [%r3+16], %rd5;\n"
      "\tatom.shared.exch.b64 %rd8, [%r3+24], %rd5;\n"
      "\tatom.global.max.s64 %rd9, [%rd2+32], %rd5;\n"
      "\tbar.sync 0;\n\tld.shared.u64 %rd10, [%r3+8];\n\tld.shared.u64 %rd11, [%r3+24];\n"
      "\tcvt.u64.u16 %rd12, %rs3;\n\tshl.b64 %rd11, %rd11, 32;\n\tor.b64 %rd10, %rd10, %rd11;\n"
      "\tshl.b64 %rd12, %rd12, 16;\n\tor.b64 %rd10, %rd10, %rd12;\n\tst.global.u64 [%rd1], %rd10;");
  ASSERT_EQ(r.out.size(), 32u);
  EXPECT_EQ(u16(r.data, 0), 32u);
  EXPECT_EQ(u64(r.data, 32), 31u);
  const std::uint64_t v = r.out[7];
  EXPECT_EQ(v & 0xffffu, 496u);           // 0 + 1 + ... + 31
  EXPECT_EQ((v >> 16) & 0xffffu, 7u);     // lane 7's cas saw 7
  EXPECT_EQ(v >> 32, 31u);                // the last exchange wins
}

TEST(Atomics, ScopesAndOrdersAreAccepted) {
  Result r = run_atomics(
      "\tatom.add.acq_rel.gpu.s32 %r5, [%rd2], 1;\n"
      "\tatom.global.relaxed.cta.add.u32 %r6, [%rd2+4], 2;\n"
      "\tatom.global.acquire.sys.exch.b32 %r7, [%rd2+8], %r0;\n"
      "\tred.release.gpu.global.add.u32 [%rd2+12], 3;\n"
      "\tatom.shared::cta.add.u32 %r8, [%r3], 1;\n"
      "\tatom.global.cluster.add.u32 %r9, [%rd2+16], 1;\n"
      "\tcvt.u64.u32 %rd4, %r5;\n\tst.global.u64 [%rd1], %rd4;");
  ASSERT_EQ(r.out.size(), 32u);
  EXPECT_EQ(r.data[0], 32u);
  EXPECT_EQ(r.data[4], 64u);
  EXPECT_EQ(r.data[8], 31u);
  EXPECT_EQ(r.data[12], 96u);
  EXPECT_EQ(r.data[16], 32u);
  EXPECT_EQ(r.out[9], 9u);
}

}  // namespace
}  // namespace warpscope::emu
