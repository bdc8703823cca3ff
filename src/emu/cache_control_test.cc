// cache_control_test.cc: cp.async's src-size and ignore-src, and the cache-control forms
// nvcc 13 and Triton 3.6 emit (createpolicy, .L2::cache_hint, eviction priorities,
// prefetch, discard, applypriority, griddepcontrol): legal, and no address changes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "emu/emu_test_util.h"

namespace warpscope::emu {
namespace {

using testing::read_buffer;

struct KernelRun {
  std::vector<std::uint32_t> out;  // the `out` buffer
  std::vector<AccessEvent> accesses;
  std::vector<Diagnostic> diagnostics;
};

// k(.param .u64 out, .param .u64 in): %rd1 = out, %rd2 = in (global), %r0 = tid.x,
// %rd3 = 4 * tid.x. `in` holds 1024 words i + 1, `out` 1024 words.
KernelRun run_kernel(const std::string& body, const std::string& decls = "") {
  std::string src = ".version 8.7\n.target sm_90\n.address_size 64\n" + decls +
                    ".visible .entry k(.param .u64 out, .param .u64 in)\n{\n"
                    "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .f32 %f<8>;\n\t.reg .b64 %rd<16>;\n"
                    "\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n\tmov.u32 %r0, %tid.x;\n"
                    "\tmul.wide.u32 %rd3, %r0, 4;\n" +
                    body + "\n\tret;\n}\n";
  auto m = ptx::parse(src, "c.ptx");
  EXPECT_TRUE(m) << m.error().render();
  KernelRun result;
  if (!m) return result;
  for (const auto& inst : m->functions[0].body)
    EXPECT_NE(inst.opcode, ptx::Opcode::Unsupported) << inst.text << ": " << inst.unsupported_reason;
  GlobalMemory memory;
  std::vector<std::uint32_t> in(1024);
  for (std::uint32_t i = 0; i < 1024; ++i) in[i] = i + 1;
  auto out = memory.allocate(4096, "out");
  auto inb = testing::make_buffer(memory, in, "in");
  auto r = run(*m, "k", LaunchConfig{{1, 1, 1}, {32, 1, 1}, 0}, {KernelArg::of(out), KernelArg::of(inb)}, memory, {},
               testing::recorder_factory());
  EXPECT_TRUE(r) << (r ? "" : r.error().message);
  if (!r) return result;
  result.out = read_buffer<std::uint32_t>(memory, out);
  result.accesses = testing::merged(*r).accesses;
  result.diagnostics = r->diagnostics;
  return result;
}

// The global half of each cp.async: lanes that read, by instruction order.
std::vector<std::uint32_t> cp_async_reads(const KernelRun& r) {
  std::vector<std::uint32_t> lanes;
  for (const AccessEvent& e : r.accesses)
    if (e.async_copy && e.access.op == model::MemOp::GlobalLoad) lanes.push_back(e.access.mask);
  return lanes;
}

// Triton's masked, pipelined load: src-size = mask ? 4 : 0, the masked-off lanes'
// source past the end of `in`. They read nothing: no diagnostic, no global traffic,
// zeros in shared memory.
TEST(CpAsync, SourceSizeZeroReadsNothing) {
  KernelRun r = run_kernel(
      "\tmov.b32 %r1, tile;\n\tshl.b32 %r2, %r0, 2;\n\tadd.s32 %r3, %r1, %r2;\n"
      "\tsetp.lt.u32 %p1, %r0, 20;\n\tselp.b32 %r4, 4, 0, %p1;\n"
      "\tadd.s64 %rd6, %rd2, %rd3;\n"                                         // lane l: word l
      "\t@!%p1 add.s64 %rd6, %rd2, 1048576;\n"                                // lanes >= 20: far past the end
      "\tcp.async.ca.shared.global [ %r3 + 0 ], [ %rd6 + 0 ], 0x4, %r4;\n"
      "\tcp.async.commit_group;\n\tcp.async.wait_group 0;\n\tbar.sync 0;\n"
      "\tld.shared.u32 %r5, [%r3];\n\tadd.s64 %rd7, %rd1, %rd3;\n\tst.global.u32 [%rd7], %r5;",
      ".shared .align 16 .b8 tile[128];\n");
  for (const auto& d : r.diagnostics) ADD_FAILURE() << d.message;
  ASSERT_GE(r.out.size(), 32u);
  for (std::uint32_t l = 0; l < 32; ++l) EXPECT_EQ(r.out[l], l < 20 ? l + 1 : 0u) << l;
  EXPECT_EQ(cp_async_reads(r), (std::vector<std::uint32_t>{0x000fffffu}));
}

// src-size smaller than cp-size: the first src-size bytes are read, the rest zero-filled;
// a lane that reads part of a chunk is still one reading lane.
TEST(CpAsync, PartialSourceSizeZeroFillsTheRest) {
  KernelRun r = run_kernel(
      "\tmov.b32 %r1, tile;\n\tshl.b32 %r2, %r0, 4;\n\tadd.s32 %r3, %r1, %r2;\n"
      "\tmul.wide.u32 %rd4, %r0, 16;\n\tadd.s64 %rd5, %rd2, %rd4;\n"
      "\tcp.async.cg.shared.global [%r3], [%rd5], 16, 8;\n"
      "\tcp.async.wait_all;\n\tbar.sync 0;\n"
      "\tld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [%r3];\n"
      "\tmul.wide.u32 %rd6, %r0, 16;\n\tadd.s64 %rd7, %rd1, %rd6;\n\tst.global.v4.u32 [%rd7], {%r5, %r6, %r7, %r8};",
      ".shared .align 16 .b8 tile[512];\n");
  for (const auto& d : r.diagnostics) ADD_FAILURE() << d.message;
  for (std::uint32_t l = 0; l < 32; ++l) {
    EXPECT_EQ(r.out[4 * l], 4 * l + 1);
    EXPECT_EQ(r.out[4 * l + 1], 4 * l + 2);
    EXPECT_EQ(r.out[4 * l + 2], 0u);
    EXPECT_EQ(r.out[4 * l + 3], 0u);
  }
  EXPECT_EQ(cp_async_reads(r), (std::vector<std::uint32_t>{0xffffffffu}));
}

// The ignore-src form: a true predicate reads nothing; with .L2::cache_hint the policy
// comes last and is no source size.
TEST(CpAsync, IgnoreSourcePredicateAndCacheHint) {
  KernelRun r = run_kernel(
      "\tcreatepolicy.fractional.L2::evict_first.b64 %rd8, 1.0;\n"
      "\tmov.b32 %r1, tile;\n\tshl.b32 %r2, %r0, 2;\n\tadd.s32 %r3, %r1, %r2;\n"
      "\tand.b32 %r4, %r0, 1;\n\tsetp.eq.u32 %p1, %r4, 1;\n"                  // odd lanes ignore their source
      "\tadd.s64 %rd5, %rd2, %rd3;\n\t@%p1 add.s64 %rd5, %rd5, 1048576;\n"
      "\tcp.async.ca.shared.global.L2::cache_hint [%r3], [%rd5], 4, %p1, %rd8;\n"
      "\tcp.async.ca.shared.global.L2::cache_hint.L2::128B [%r3+128], [%rd2+128], 4, %rd8;\n"
      "\tcp.async.wait_all;\n\tbar.sync 0;\n"
      "\tld.shared.u32 %r5, [%r3];\n\tld.shared.u32 %r6, [%r3+128];\n\tadd.s32 %r7, %r5, %r6;\n"
      "\tadd.s64 %rd7, %rd1, %rd3;\n\tst.global.u32 [%rd7], %r7;",
      ".shared .align 16 .b8 tile[256];\n");
  for (const auto& d : r.diagnostics) ADD_FAILURE() << d.message;
  // [%r3+128] is lane l + 32's word; the second copy reads word 32 (+128 bytes) for every lane.
  for (std::uint32_t l = 0; l < 32; ++l) EXPECT_EQ(r.out[l], (l % 2 == 1 ? 0 : l + 1) + 33) << l;
  EXPECT_EQ(cp_async_reads(r), (std::vector<std::uint32_t>{0x55555555u, 0xffffffffu}));
}

// Out of bounds is still out of bounds for the bytes a lane does read.
TEST(CpAsync, ReadingLanesAreStillChecked) {
  KernelRun r = run_kernel(
      "\tmov.b32 %r1, tile;\n\tshl.b32 %r2, %r0, 2;\n\tadd.s32 %r3, %r1, %r2;\n"
      "\tadd.s64 %rd5, %rd2, 4096;\n"                                          // just past `in`
      "\tcp.async.ca.shared.global [%r3], [%rd5], 4, 4;\n\tcp.async.wait_all;",
      ".shared .align 16 .b8 tile[128];\n");
  ASSERT_FALSE(r.diagnostics.empty());
  EXPECT_NE(r.diagnostics[0].message.find("out-of-bounds global load of 4 bytes"), std::string::npos)
      << r.diagnostics[0].message;
}

// What nvcc 13 emits for __ldg/__ldcs/__stcs..., cuda::annotated_ptr and inline PTX
// (corpus/frontend/cache_hints.cu), and Triton's eviction_policy / cache_modifier
// (corpus/frontend/triton_cache_hints.py): every form runs, and every load still reads
// its own word, every store writes its own.
TEST(CacheControl, HintsChangeNoAddress) {
  const char* loads[] = {
      "ld.global.nc.f32", "ld.global.ca.f32", "ld.global.cg.f32", "ld.global.cs.f32", "ld.global.lu.f32",
      "ld.global.cv.f32", "ld.global.L1::no_allocate.L2::256B.f32", "ld.global.L1::evict_last.L2::cache_hint.b32",
      "ld.global.L1::evict_first.L2::cache_hint.b32", "ld.global.L1::evict_unchanged.f32",
      "ld.global.L2::evict_last.f32", "ld.global.nc.L1::no_allocate.L2::cache_hint.L2::128B.f32",
      "ld.relaxed.gpu.global.L1::evict_normal.f32"};
  for (const char* load : loads) {
    const bool hint = std::string(load).find("cache_hint") != std::string::npos;
    KernelRun r = run_kernel(std::string("\tcreatepolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd8, 0f3F000000;\n"
                                   "\tadd.s64 %rd4, %rd2, %rd3;\n\t") +
                       load + " %f1, [%rd4+4]" + (hint ? ", %rd8" : "") +
                       ";\n\tadd.s64 %rd5, %rd1, %rd3;\n"
                       "\tst.global.L1::no_allocate.f32 [%rd5], %f1;\n"
                       "\tst.global.L2::cache_hint.f32 [%rd5+128], %f1, %rd8;\n"
                       "\tst.global.cs.f32 [%rd5+256], %f1;\n\tst.global.wt.f32 [%rd5+384], %f1;\n"
                       "\tst.global.L1::evict_last.L2::cache_hint.b32 [%rd5+512], %f1, %rd8;\n");
    for (const auto& d : r.diagnostics) ADD_FAILURE() << load << ": " << d.message;
    ASSERT_EQ(r.out.size(), 1024u) << load;
    for (std::uint32_t l = 0; l < 32; ++l)
      for (std::uint32_t k = 0; k < 5; ++k) EXPECT_EQ(r.out[32 * k + l], l + 2) << load << " lane " << l << " store " << k;
  }
}

TEST(CacheControl, PrefetchDiscardPriorityAndGridDependencyAreNoOps) {
  KernelRun r = run_kernel(
      "\tadd.s64 %rd4, %rd2, %rd3;\n"
      "\tgriddepcontrol.wait;\n"
      "\tprefetch.global.L2::evict_last [%rd4];\n\tprefetch.global.L2::evict_normal [%rd4];\n"
      "\tprefetch.global.L1 [%rd4];\n\tprefetch.global.L2 [%rd4];\n\tprefetch.L1 [%rd4];\n\tprefetchu.L1 [%rd4];\n"
      "\tprefetch.local.L2 [%rd4];\n"
      "\tadd.s64 %rd6, %rd2, 1048576;\n\tprefetch.global.L2 [%rd6];\n"                     // no fault, no traffic
      "\tcreatepolicy.range.L2::evict_last.L2::evict_unchanged.b64 %rd8, [%rd4], 256, 1024;\n"
      "\tcreatepolicy.range.global.L2::evict_first.b64 %rd9, [%rd4], 128, 128;\n"
      "\tcreatepolicy.cvt.L2.b64 %rd10, %rd9;\n"
      "\tapplypriority.global.L2::evict_normal [%rd2], 128;\n"
      "\tdiscard.global.L2 [%rd2], 128;\n"
      "\tld.global.L2::cache_hint.u32 %r1, [%rd4], %rd8;\n"
      "\tadd.s64 %rd5, %rd1, %rd3;\n\tst.global.u32 [%rd5], %r1;\n"
      "\tgriddepcontrol.launch_dependents;");
  for (const auto& d : r.diagnostics) ADD_FAILURE() << d.message;
  for (std::uint32_t l = 0; l < 32; ++l) EXPECT_EQ(r.out[l], l + 1);
  // Only the load and the store touch memory.
  EXPECT_EQ(r.accesses.size(), 2u);
}

// Triton 3.6's masked, pipelined loop (corpus/frontend/triton_kernels.py): the last tile's
// masked-off lanes point past the end of x and read nothing; every row sums to n.
TEST(CpAsync, TritonMaskedPipelinedSum) {
  auto m = ptx::parse_file(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/frontend/triton_masked_pipelined_sum.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  const int rows = 64, n = 1000;
  std::vector<float> ones(static_cast<std::size_t>(rows * n), 1.0f);
  auto x = testing::make_buffer(memory, ones, "x");
  auto out = memory.allocate(rows * 4, "out");
  auto scratch = memory.allocate(16, "scratch"), profile = memory.allocate(16, "profile");
  auto r = run(*m, "masked_pipelined_sum", LaunchConfig{{64, 1, 1}, {128, 1, 1}, 2048},
               {KernelArg::of(x), KernelArg::of(out), KernelArg::of(n), KernelArg::of(scratch), KernelArg::of(profile)},
               memory);
  ASSERT_TRUE(r) << r.error().message;
  for (const auto& d : r->diagnostics) ADD_FAILURE() << d.message;
  const auto sums = read_buffer<float>(memory, out);
  for (int row = 0; row < rows; ++row) EXPECT_EQ(sums[static_cast<std::size_t>(row)], 1000.0f) << row;
}

}  // namespace
}  // namespace warpscope::emu
