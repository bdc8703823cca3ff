// wgmma_test.cc: wgmma.mma_async through the emulator against a brute-force product: A and
// B placed in shared memory in CuTe's canonical layouts (atoms of 8 rows tiled MN first)
// by this test, the descriptors built as Triton and CUTLASS build them, two k-slices (the
// first with scale-d false, the second accumulating), D's fragments read back with the
// PTX ISA's accumulator layout written out here. Also: A from registers, the shared
// footprint published as gmma events, and the warpgroup's scheduling.
#include <gtest/gtest.h>

#include <set>

#include "emu/emu_test_util.h"
#include "emu/smem_descriptor.h"
#include "emu/tensor_test_util.h"

namespace warpscope::emu {
namespace {

using testing::encode_value;
using testing::make_buffer;
using testing::Matrix;
using testing::random_matrix;
using testing::read_buffer;
using T = ptx::TensorType;

struct Case {
  int n;
  T d, in;
  Swizzle swizzle;
  bool a_mn_major = false, b_mn_major = false;  // imm-trans-a/b (f16/bf16 only)
  bool a_registers = false;                     // A from registers (RS)
};

int width_chunks(Swizzle s) { return s == Swizzle::B128 ? 8 : s == Swizzle::B64 ? 4 : s == Swizzle::B32 ? 2 : 1; }

// An MN x K operand's canonical image: byte offset of element (mn, k) from a 1024-aligned
// base, and the descriptor of the 32-byte k-slice `slice`.
struct Image {
  int mn, k, eb;
  Swizzle s;
  bool mn_major;
  int row_bytes() const { return 16 * width_chunks(s); }
  std::uint32_t offset(int i, int kk) const {
    const int w = width_chunks(s), rb = row_bytes(), atom = 8 * rb;
    std::uint32_t plain = 0;
    if (!mn_major) {
      const int kb = kk * eb;
      plain = s == Swizzle::None
                  ? static_cast<std::uint32_t>((i / 8) * 128 + (kb / 16) * (mn / 8) * 128 + (i % 8) * 16 + kb % 16)
                  : static_cast<std::uint32_t>((i / 8 + (kb / rb) * (mn / 8)) * atom + (i % 8) * rb + kb % rb);
    } else {
      const int mnb = i * eb, mn_atoms = mn * eb / rb;
      plain = s == Swizzle::None
                  ? static_cast<std::uint32_t>((mnb / 16) * 128 + (kk / 8) * (mn * eb / 16) * 128 + (kk % 8) * 16 + mnb % 16)
                  : static_cast<std::uint32_t>((mnb / rb + (kk / 8) * mn_atoms) * atom + (kk % 8) * rb + mnb % rb);
    }
    const std::uint32_t b = static_cast<std::uint32_t>(w == 8 ? 7 : w == 4 ? 3 : w == 2 ? 1 : 0);
    return plain ^ (((plain >> 7) & b) << 4);
  }
  std::uint32_t bytes() const { return static_cast<std::uint32_t>(mn * k * eb); }
  std::uint64_t descriptor(std::uint32_t base, int slice) const {
    SmemDescriptor d;
    d.swizzle = s;
    const int rb = row_bytes(), atom = 8 * rb, k0 = slice * 32 / eb;
    if (!mn_major) {
      if (s == Swizzle::None) {
        d.stride = 128;
        d.leading = static_cast<std::uint32_t>((mn / 8) * 128);
        d.start = base + static_cast<std::uint32_t>((k0 * eb / 16) * d.leading);
      } else {
        d.stride = static_cast<std::uint32_t>(atom);
        d.leading = 16;
        d.start = base + static_cast<std::uint32_t>((k0 * eb / rb) * (mn / 8) * atom + (k0 * eb) % rb);
      }
    } else {
      const int mn_atoms = mn * eb / rb;
      if (s == Swizzle::None) {
        d.stride = 128;
        d.leading = static_cast<std::uint32_t>((mn * eb / 16) * 128);
      } else {
        d.leading = static_cast<std::uint32_t>(atom);
        d.stride = static_cast<std::uint32_t>(mn_atoms * atom);
      }
      d.start = base + static_cast<std::uint32_t>((k0 / 8) * (s == Swizzle::None ? d.leading : d.stride));
    }
    return d.encode();
  }
};

std::string regs(const std::string& name, int n) {
  std::string s = "{";
  for (int i = 0; i < n; ++i) s += (i ? ", %" : "%") + name + std::to_string(i);
  return s + "}";
}

struct WgmmaRun {
  std::unique_ptr<ptx::Module> module;
  std::vector<AccessEvent> gmma;
  std::vector<Diagnostic> diagnostics;
  std::vector<std::uint32_t> d;  // per thread: regs words
  int d_regs = 0;
};

// One warpgroup (or `threads`), A and B images copied to shared memory (A at 0, B at 16 KiB),
// two wgmmas over k-slices 0 and 1, D stored per thread.
WgmmaRun run_case(const Case& c, Matrix& A, Matrix& B, int threads = 128, const std::string& before_wgmma = "") {
  const int eb = ptx::tensor_type_bits(c.in) / 8, K = 64 / eb;  // two slices of 32 bytes
  const bool sixteen = c.in == T::F16 || c.in == T::BF16, ints = c.in == T::S8 || c.in == T::U8;
  const Image ia{64, K, eb, c.swizzle, c.a_mn_major}, ib{c.n, K, eb, c.swizzle, c.b_mn_major};
  std::vector<std::uint8_t> image(49152, 0);  // A at 0, B at 16 KiB (n256 in 128B atoms: 32 KiB)
  for (int m = 0; m < 64; ++m)
    for (int k = 0; k < K; ++k) std::memcpy(&image[ia.offset(m, k)], &A.at(m, k).bits, static_cast<std::size_t>(eb));
  for (int n = 0; n < c.n; ++n)
    for (int k = 0; k < K; ++k) std::memcpy(&image[16384 + ib.offset(n, k)], &B.at(k, n).bits, static_cast<std::size_t>(eb));
  const int d_regs = c.d == T::F16 ? c.n / 4 : c.n / 2;
  const std::string shape = "m64n" + std::to_string(c.n) + "k" + std::to_string(32 / eb);
  const std::string types = "." + std::string(ptx::tensor_type_name(c.d)) + "." + std::string(ptx::tensor_type_name(c.in)) + "." +
                            std::string(ptx::tensor_type_name(c.in));
  std::string s = ".version 8.5\n.target sm_90a\n.address_size 64\n.shared .align 1024 .b8 smem[49152];\n"
                  ".visible .entry k(.param .u64 p_img, .param .u64 p_d, .param .u64 p_a, .param .u64 da0, .param .u64 db0,"
                  " .param .u64 da1, .param .u64 db1)\n{\n"
                  "\t.reg .pred %p<4>;\n\t.reg .b32 %r<16>;\n\t.reg .b64 %rd<32>;\n\t.reg .b32 %a<8>;\n";
  s += "\t.reg .b32 %d<" + std::to_string(d_regs) + ">;\n";
  s += "\tmov.u32 %r1, %tid.x;\n\tld.param.u64 %rd0, [p_img];\n\tld.param.u64 %rd1, [p_d];\n\tld.param.u64 %rd2, [p_a];\n";
  s += "\tld.param.u64 %rd3, [da0];\n\tld.param.u64 %rd4, [db0];\n\tld.param.u64 %rd5, [da1];\n\tld.param.u64 %rd6, [db1];\n";
  s += "\tmov.u32 %r9, smem;\n\tmov.u32 %r2, %r1;\n$Lc:\n\tsetp.ge.u32 %p1, %r2, 12288;\n\t@%p1 bra $Ld;\n";
  s += "\tmul.wide.u32 %rd20, %r2, 4;\n\tadd.s64 %rd21, %rd0, %rd20;\n\tld.global.b32 %r3, [%rd21];\n";
  s += "\tshl.b32 %r4, %r2, 2;\n\tadd.u32 %r4, %r4, %r9;\n\tst.shared.b32 [%r4], %r3;\n";
  s += "\tadd.u32 %r2, %r2, " + std::to_string(threads) + ";\n\tbra $Lc;\n$Ld:\n\tbar.sync 0;\n";
  // A registers (RS): 4 words per thread, from p_a.
  s += "\tmul.wide.u32 %rd22, %r1, 16;\n\tadd.s64 %rd23, %rd2, %rd22;\n";
  for (int i = 0; i < 4; ++i) s += "\tld.global.b32 %a" + std::to_string(i) + ", [%rd23+" + std::to_string(4 * i) + "];\n";
  s += before_wgmma;
  s += "\twgmma.fence.sync.aligned;\n";
  for (int slice = 0; slice < 2; ++slice) {
    const std::string a = c.a_registers ? regs("a", 4) : "%rd" + std::to_string(slice == 0 ? 3 : 5);
    const std::string b = "%rd" + std::to_string(slice == 0 ? 4 : 6);
    s += "\tsetp.ne.b32 %p2, " + std::to_string(slice) + ", 0;\n";
    std::string tail = ", %p2";
    if (!ints) tail += ", 1, 1";
    if (sixteen && !c.a_registers) tail += std::string(", ") + (c.a_mn_major ? "1" : "0");
    if (sixteen) tail += std::string(", ") + (c.b_mn_major ? "1" : "0");
    s += "\twgmma.mma_async.sync.aligned." + shape + types + " " + regs("d", d_regs) + ", " + a + ", " + b + tail + ";\n";
  }
  s += "\twgmma.commit_group.sync.aligned;\n\twgmma.wait_group.sync.aligned 0;\n";
  s += "\tmul.wide.u32 %rd24, %r1, " + std::to_string(4 * d_regs) + ";\n\tadd.s64 %rd25, %rd1, %rd24;\n";
  for (int i = 0; i < d_regs; ++i) s += "\tst.global.b32 [%rd25+" + std::to_string(4 * i) + "], %d" + std::to_string(i) + ";\n";
  s += "\tret;\n}\n";
  WgmmaRun out;
  out.d_regs = d_regs;
  auto parsed = ptx::parse(s, "wgmma.ptx");
  EXPECT_TRUE(parsed) << parsed.error().render() << "\n" << s;
  if (!parsed) return out;
  out.module = std::make_unique<ptx::Module>(std::move(*parsed));
  // A in registers: warp w, lane l: rows 16w + g (+8), k = 2q + (e & 1) (+8) for f16.
  std::vector<std::uint32_t> areg(static_cast<std::size_t>(threads * 4), 0);
  if (c.a_registers)
    for (int t = 0; t < 128; ++t)
      for (int e = 0; e < 8; ++e) {
        const int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
        const int row = 16 * w + g + 8 * ((e >> 1) & 1), col = 2 * q + (e & 1) + 8 * (e >> 2);
        areg[static_cast<std::size_t>(t * 4 + e / 2)] |= static_cast<std::uint32_t>(A.at(row, col).bits) << (16 * (e & 1));
      }
  GlobalMemory memory;
  const std::uint64_t d = memory.allocate(static_cast<std::uint64_t>(threads * d_regs * 4), "d");
  const std::uint32_t abase = 0, bbase = 16384;
  std::vector<KernelArg> args = {KernelArg::of(make_buffer(memory, image, "image")), KernelArg::of(d),
                                 KernelArg::of(make_buffer(memory, areg, "areg")),  KernelArg::of(ia.descriptor(abase, 0)),
                                 KernelArg::of(ib.descriptor(bbase, 0)),            KernelArg::of(ia.descriptor(abase, 1)),
                                 KernelArg::of(ib.descriptor(bbase, 1))};
  RunOptions opt;
  opt.workers = 1;
  auto r = run(*out.module, "k", {{1, 1, 1}, {static_cast<std::uint32_t>(threads), 1, 1}}, args, memory, opt,
               testing::recorder_factory());
  EXPECT_TRUE(r) << r.error().render();
  if (!r) return out;
  out.diagnostics = r->diagnostics;
  for (const AccessEvent& e : testing::merged(*r).accesses)
    if (e.access.op == model::MemOp::Gmma) out.gmma.push_back(e);
  out.d = read_buffer<std::uint32_t>(memory, d);
  return out;
}

void check(const Case& c, unsigned seed) {
  std::mt19937 rng(seed);
  const int eb = ptx::tensor_type_bits(c.in) / 8, K = 64 / eb;
  Matrix A = random_matrix(64, K, c.in, rng), B = random_matrix(K, c.n, c.in, rng);
  WgmmaRun r = run_case(c, A, B);
  for (const auto& diag : r.diagnostics) ADD_FAILURE() << diag.message;
  ASSERT_EQ(r.d.size(), static_cast<std::size_t>(128 * r.d_regs));
  // With A in registers, both slices multiply the same A (the registers' 16 k): k-slice 1
  // of A is the registers' again.
  int failures = 0;
  for (int t = 0; t < 128 && failures < 4; ++t)
    for (int i = 0; i < r.d_regs && failures < 4; ++i)
      for (int h = 0; h < (c.d == T::F16 ? 2 : 1); ++h) {
        const int w = t / 32, lane = t % 32, g = lane / 4, q = lane % 4;
        int row = 0, col = 0;
        if (c.d == T::F16) {
          row = 16 * w + g + 8 * (i & 1);
          col = 8 * (i / 2) + 2 * q + h;
        } else {
          row = 16 * w + g + 8 * ((i % 4) / 2);
          col = 8 * (i / 4) + 2 * q + (i & 1);
        }
        double expect = 0;
        for (int k = 0; k < K; ++k) {
          const int ka = c.a_registers ? k % (32 / eb) : k;
          expect += A.at(row, ka).value * B.at(k, col).value;
        }
        const std::uint32_t word = r.d[static_cast<std::size_t>(t * r.d_regs + i)];
        const std::uint64_t got = c.d == T::F16 ? (word >> (16 * h)) & 0xffffu : word;
        if (got != encode_value(c.d, expect)) {
          ADD_FAILURE() << "D(" << row << ", " << col << ") thread " << t << " reg " << i << ": " << got << ", expected "
                        << expect;
          ++failures;
        }
      }
  // The published footprint: every chunk the product read, once (A's unless in registers).
  std::set<std::uint64_t> chunks;
  std::size_t rows = 0;
  for (const AccessEvent& e : r.gmma) {
    EXPECT_EQ(e.warp, 0);
    for (int l = 0; l < 32; ++l)
      if ((e.access.mask >> l) & 1u) {
        chunks.insert(e.access.address[static_cast<std::size_t>(l)]);
        ++rows;
      }
  }
  const std::size_t per_slice = static_cast<std::size_t>((c.a_registers ? 0 : 64 * 32) + c.n * 32) / 16;
  EXPECT_EQ(rows, 2 * per_slice);
  EXPECT_EQ(chunks.size(), 2 * per_slice);
}

std::string describe(const Case& c) {
  return "n" + std::to_string(c.n) + " ." + std::string(ptx::tensor_type_name(c.d)) + "." +
         std::string(ptx::tensor_type_name(c.in)) + " swizzle " + std::to_string(16 * width_chunks(c.swizzle)) + "B" +
         (c.a_mn_major ? " A MN-major" : "") + (c.b_mn_major ? " B MN-major" : "") + (c.a_registers ? " A in registers" : "");
}

TEST(Wgmma, EveryTypeSwizzleAndMajorNessAgainstABruteForceProduct) {
  std::vector<Case> cases;
  for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128}) {
    for (int n : {8, 24, 64, 256}) cases.push_back({n, T::F32, T::F16, s});
    cases.push_back({64, T::F32, T::F16, s, true, false});
    cases.push_back({64, T::F32, T::F16, s, false, true});
    cases.push_back({128, T::F32, T::BF16, s, true, true});
    cases.push_back({64, T::F16, T::F16, s});
    cases.push_back({64, T::F32, T::TF32, s});
    cases.push_back({64, T::F32, T::E4M3, s});
    cases.push_back({32, T::F32, T::E5M2, s});
    cases.push_back({64, T::S32, T::S8, s});
    cases.push_back({48, T::S32, T::U8, s});
    cases.push_back({64, T::F32, T::F16, s, false, false, true});
    cases.push_back({64, T::F32, T::BF16, s, false, true, true});
  }
  unsigned seed = 11;
  for (const Case& c : cases) {
    SCOPED_TRACE(describe(c));
    check(c, seed++);
    if (::testing::Test::HasFailure()) return;
  }
}

// Warps reach the wgmma at different times (warp 2 spins first): the four still run it as
// one, and warps of another warpgroup run theirs on their own.
TEST(Wgmma, WarpsOfAWarpgroupWaitForEachOther) {
  const Case c{64, T::F32, T::F16, Swizzle::B128};
  std::mt19937 rng(5);
  Matrix A = random_matrix(64, 32, T::F16, rng), B = random_matrix(32, 64, T::F16, rng);
  const std::string spin =
      "\tshr.u32 %r5, %r1, 5;\n\tsetp.ne.u32 %p3, %r5, 2;\n\t@%p3 bra $Lgo;\n\tmov.u32 %r6, 0;\n$Lspin:\n"
      "\tadd.u32 %r6, %r6, 1;\n\tsetp.lt.u32 %p3, %r6, 100;\n\t@%p3 bra $Lspin;\n$Lgo:\n";
  WgmmaRun r = run_case(c, A, B, 128, spin);
  for (const auto& diag : r.diagnostics) ADD_FAILURE() << diag.message;
  EXPECT_EQ(r.gmma.size(), 2u * (16 + 16) / 4);  // two wgmmas of 16 + 16 core matrices
}

TEST(Wgmma, AWarpThatNeverArrivesIsADiagnosedDeadlock) {
  const Case c{64, T::F32, T::F16, Swizzle::B128};
  std::mt19937 rng(5);
  Matrix A = random_matrix(64, 32, T::F16, rng), B = random_matrix(32, 64, T::F16, rng);
  const std::string leave = "\tshr.u32 %r5, %r1, 5;\n\tsetp.eq.u32 %p3, %r5, 1;\n\t@%p3 ret;\n";
  WgmmaRun r = run_case(c, A, B, 128, leave);
  ASSERT_FALSE(r.diagnostics.empty());
  bool found = false;
  for (const auto& d : r.diagnostics)
    found = found || (d.severity == Diagnostic::Severity::Error && d.message.find("warpgroup") != std::string::npos &&
                      d.message.find("warp 1 has exited") != std::string::npos);
  EXPECT_TRUE(found) << r.diagnostics[0].message;
}

TEST(Wgmma, APartialWarpgroupIsAnError) {
  const Case c{64, T::F32, T::F16, Swizzle::B128};
  std::mt19937 rng(5);
  Matrix A = random_matrix(64, 32, T::F16, rng), B = random_matrix(32, 64, T::F16, rng);
  WgmmaRun r = run_case(c, A, B, 96);
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].message.find("needs a warpgroup of 4 full warps"), std::string::npos) << r.diagnostics[0].message;
}

}  // namespace
}  // namespace warpscope::emu
