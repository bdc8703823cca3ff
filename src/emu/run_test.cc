// run_test.cc: real nvcc kernels (tests/data/ptx/*.cu) give the right numbers.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <numeric>

#include "emu/emu_test_util.h"

namespace warpscope::emu {
namespace {

using testing::make_buffer;
using testing::read_buffer;
using testing::test_module;

std::string diagnostics_text(const RunReport& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += d.message + "\n";
  return s;
}

void transpose_case(const char* kernel) {
  const int n = 256;
  std::vector<float> in(n * n);
  for (int i = 0; i < n * n; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i);
  GlobalMemory memory;
  auto out = memory.allocate(n * n * 4, "out");
  auto inb = make_buffer(memory, in, "in");
  auto report = run(test_module("transpose"), kernel, {{n / 32, n / 32, 1}, {32, 8, 1}},
                    {KernelArg::of(out), KernelArg::of(inb), KernelArg::of(n)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  EXPECT_EQ(report->blocks_run, 64u);
  EXPECT_EQ(report->shared_bytes, std::string(kernel) == "transpose_tiled" ? 32u * 33 * 4 : 0u);
  auto result = read_buffer<float>(memory, out);
  int wrong = 0;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x)
      if (result[static_cast<std::size_t>(x * n + y)] != in[static_cast<std::size_t>(y * n + x)]) ++wrong;
  EXPECT_EQ(wrong, 0);
}

TEST(Run, TransposeTiled) { transpose_case("transpose_tiled"); }
TEST(Run, TransposeNaive) { transpose_case("transpose_naive"); }

// The progress hook: one call at a time, strictly increasing, ending at the blocks run.
void progress_case(int workers, std::vector<std::uint64_t> blocks, std::uint64_t expected_total) {
  const int n = 256;
  GlobalMemory memory;
  auto out = memory.allocate(n * n * 4, "out");
  auto inb = memory.allocate(n * n * 4, "in");
  std::vector<std::pair<std::uint64_t, std::uint64_t>> calls;
  std::atomic<int> inside{0};
  bool overlapped = false;
  RunOptions options;
  options.workers = workers;
  options.blocks = std::move(blocks);
  options.progress = [&](std::uint64_t done, std::uint64_t total) {
    if (inside.fetch_add(1) != 0) overlapped = true;
    calls.emplace_back(done, total);
    inside.fetch_sub(1);
  };
  auto report = run(test_module("transpose"), "transpose_tiled", {{n / 32, n / 32, 1}, {32, 8, 1}},
                    {KernelArg::of(out), KernelArg::of(inb), KernelArg::of(n)}, memory, options);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_FALSE(overlapped);
  ASSERT_FALSE(calls.empty());
  for (std::size_t i = 0; i < calls.size(); ++i) {
    EXPECT_EQ(calls[i].second, expected_total);
    if (i > 0) EXPECT_GT(calls[i].first, calls[i - 1].first) << "call " << i;
  }
  EXPECT_EQ(calls.back().first, expected_total);
  EXPECT_EQ(report->blocks_run, expected_total);
  if (workers == 1) EXPECT_EQ(calls.size(), expected_total);  // one worker never finds the lock taken
}

TEST(Run, ProgressHookOneWorker) { progress_case(1, {}, 64); }
TEST(Run, ProgressHookManyWorkers) { progress_case(4, {}, 64); }
TEST(Run, ProgressHookSampledBlocks) { progress_case(3, {0, 5, 9, 33, 63}, 5); }

TEST(Run, SharedReduction) {
  const int n = 1000, blocks = 4;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i % 7);
  GlobalMemory memory;
  auto inb = make_buffer(memory, in, "in");
  auto out = memory.allocate(blocks * 4, "out");
  auto report = run(test_module("reduce"), "reduce_shared", {{blocks, 1, 1}, {256, 1, 1}},
                    {KernelArg::of(inb), KernelArg::of(out), KernelArg::of(n)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  auto result = read_buffer<float>(memory, out);
  for (int b = 0; b < blocks; ++b) {
    float expect = 0;
    for (int i = b * 256; i < std::min(n, (b + 1) * 256); ++i) expect += in[static_cast<std::size_t>(i)];
    EXPECT_EQ(result[static_cast<std::size_t>(b)], expect) << b;
  }
}

TEST(Run, ShuffleReduction) {
  const int n = 4096;
  std::vector<float> in(n, 1.0f);
  GlobalMemory memory;
  auto inb = make_buffer(memory, in, "in");
  auto out = memory.allocate(4, "out");
  auto report = run(test_module("reduce"), "reduce_shfl", {{n / 256, 1, 1}, {256, 1, 1}},
                    {KernelArg::of(inb), KernelArg::of(out), KernelArg::of(n)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  EXPECT_EQ(read_buffer<float>(memory, out)[0], static_cast<float>(n));
}

TEST(Run, DynamicSharedReduction) {
  const int n = 10000;
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), -300);
  GlobalMemory memory;
  auto inb = make_buffer(memory, in, "in");
  auto out = memory.allocate(8, "out");
  auto report = run(test_module("reduce"), "reduce_dyn", {{8, 1, 1}, {128, 1, 1}, 128 * 8},
                    {KernelArg::of(inb), KernelArg::of(out), KernelArg::of(n)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  long long expect = 0;
  for (int v : in) expect += v;
  EXPECT_EQ(read_buffer<long long>(memory, out)[0], expect);
  EXPECT_EQ(report->static_shared_bytes, 0u);
  EXPECT_EQ(report->shared_bytes, 128u * 8);
}

TEST(Run, Histogram) {
  const int n = 50000;
  std::vector<unsigned char> in(n);
  for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<unsigned char>((i * 7919) % 251);
  GlobalMemory memory;
  auto inb = make_buffer(memory, in, "in");
  auto bins = memory.allocate(256 * 4, "bins");
  auto report = run(test_module("histogram"), "histogram", {{16, 1, 1}, {256, 1, 1}},
                    {KernelArg::of(inb), KernelArg::of(bins), KernelArg::of(n)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  std::vector<unsigned> expect(256, 0);
  for (unsigned char c : in) ++expect[c];
  EXPECT_EQ(read_buffer<unsigned>(memory, bins), expect);
}

TEST(Run, DivergentLoopsAndCalls) {
  GlobalMemory memory;
  auto out = memory.allocate(64 * 4, "out");
  auto report = run(test_module("misc"), "divergent", {{1, 1, 1}, {64, 1, 1}}, {KernelArg::of(out)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  auto result = read_buffer<int>(memory, out);
  for (int t = 0; t < 64; ++t) {
    int v = t + 1, steps = 0;
    while (v != 1) {
      v = (v & 1) ? 3 * v + 1 : v / 2;
      if (++steps > 1000) break;
    }
    EXPECT_EQ(result[static_cast<std::size_t>(t)], steps) << t;
  }
}

TEST(Run, VoteAndMatch) {
  std::vector<int> in(32);
  for (int i = 0; i < 32; ++i) in[static_cast<std::size_t>(i)] = (i % 3 == 0) ? 0 : i % 4;
  GlobalMemory memory;
  auto out = memory.allocate(32 * 16, "out");
  auto inb = make_buffer(memory, in, "in");
  auto report = run(test_module("misc"), "vote_match", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(out), KernelArg::of(inb)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  auto r = read_buffer<unsigned>(memory, out);
  unsigned ballot = 0;
  for (int i = 0; i < 32; ++i)
    if (in[static_cast<std::size_t>(i)] > 0) ballot |= 1u << i;
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(r[static_cast<std::size_t>(t * 4)], ballot);
    EXPECT_EQ(r[static_cast<std::size_t>(t * 4 + 1)], 0u);  // none > 5
    EXPECT_EQ(r[static_cast<std::size_t>(t * 4 + 2)], 1u);  // all >= 0
    unsigned same = 0;
    for (int k = 0; k < 32; ++k)
      if (in[static_cast<std::size_t>(k)] == in[static_cast<std::size_t>(t)]) same |= 1u << k;
    EXPECT_EQ(r[static_cast<std::size_t>(t * 4 + 3)], same);
  }
}

TEST(Run, BitsAndSpecialFunctions) {
  std::vector<unsigned> in(32);
  for (unsigned i = 0; i < 32; ++i) in[i] = 0x9e3779b9u * (i + 1) ^ (i << 20);
  GlobalMemory memory;
  auto out = memory.allocate(32 * 32, "out");
  auto inb = make_buffer(memory, in, "in");
  auto report = run(test_module("misc"), "bits", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(out), KernelArg::of(inb)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  auto r = read_buffer<unsigned>(memory, out);
  for (unsigned t = 0; t < 32; ++t) {
    unsigned v = in[t];
    const unsigned* o = &r[t * 8];
    EXPECT_EQ(o[0], static_cast<unsigned>(__builtin_popcount(v)));
    EXPECT_EQ(o[1], v == 0 ? 32u : static_cast<unsigned>(__builtin_clz(v)));
    unsigned rev = 0;
    for (int i = 0; i < 32; ++i) rev |= ((v >> i) & 1u) << (31 - i);
    EXPECT_EQ(o[2], rev);
    std::uint64_t bytes = (std::uint64_t(0x12345678u) << 32) | v;
    unsigned sel = 0x3210 + t, perm = 0;
    for (int i = 0; i < 4; ++i) perm |= static_cast<unsigned>((bytes >> (8 * ((sel >> (4 * i)) & 7))) & 0xff) << (8 * i);
    EXPECT_EQ(o[3], perm) << t;
    EXPECT_EQ(o[4], (v >> 3) & 0x1f);
    EXPECT_EQ(o[5], static_cast<unsigned>((std::uint64_t(v) * 0x9e3779b9u) >> 32));
    EXPECT_EQ(o[6], v / (t + 1) + v % (t + 3));
    float f = std::sqrt(static_cast<float>(v)) + std::sin(static_cast<float>(t));
    EXPECT_NEAR(static_cast<double>(o[7]), static_cast<double>(static_cast<unsigned>(f)), 1.0);
  }
}

TEST(Run, AsyncCopy) {
  std::vector<float> in(1024);
  for (int i = 0; i < 1024; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i) * 0.5f;
  GlobalMemory memory;
  auto out = memory.allocate(64 * 4, "out");
  auto inb = make_buffer(memory, in, "in");
  auto report = run(test_module("misc"), "async_copy", {{1, 1, 1}, {64, 1, 1}}, {KernelArg::of(out), KernelArg::of(inb)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  auto r = read_buffer<float>(memory, out);
  for (int t = 0; t < 64; ++t) EXPECT_EQ(r[static_cast<std::size_t>(t)], in[static_cast<std::size_t>((t * 4) % 256 + 1)]);
}

TEST(Run, GenericPointerIntoShared) {
  GlobalMemory memory;
  auto out = memory.allocate(64 * 4, "out");
  auto report = run(test_module("misc"), "generic_ptr", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(out), KernelArg::of(1)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  auto r = read_buffer<float>(memory, out);
  for (int t = 0; t < 32; ++t) {
    EXPECT_EQ(r[static_cast<std::size_t>(t)], 0.0f);
    EXPECT_EQ(r[static_cast<std::size_t>(t + 32)], 2.0f * static_cast<float>(t));
  }
}

TEST(Run, LdMatrix) {
  std::vector<unsigned short> in(256);
  for (int i = 0; i < 256; ++i) in[static_cast<std::size_t>(i)] = static_cast<unsigned short>(i * 3 + 1);
  GlobalMemory memory;
  auto out = memory.allocate(32 * 16, "out");
  auto inb = make_buffer(memory, in, "in");
  auto report = run(test_module("ldmatrix"), "ldsm", {{1, 1, 1}, {32, 1, 1}}, {KernelArg::of(out), KernelArg::of(inb)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
  auto r = read_buffer<unsigned>(memory, out);
  // Matrix k, row j is tile[(8k + j) * 8 .. +8]; lane l's register k holds row l/4,
  // columns 2(l%4) and 2(l%4)+1.
  for (int l = 0; l < 32; ++l)
    for (int k = 0; k < 4; ++k) {
      int row = 8 * k + l / 4, col = 2 * (l % 4);
      unsigned lo = in[static_cast<std::size_t>(row * 8 + col)], hi = in[static_cast<std::size_t>(row * 8 + col + 1)];
      EXPECT_EQ(r[static_cast<std::size_t>(l * 4 + k)], lo | (hi << 16)) << l << " " << k;
    }
}

TEST(Run, SampledBlocksAndWorkers) {
  const int n = 256;
  GlobalMemory memory;
  auto out = memory.allocate(n * n * 4, "out");
  auto inb = memory.allocate(n * n * 4, "in");
  RunOptions options;
  options.blocks = {0, 5, 63};
  options.workers = 2;
  auto report = run(test_module("transpose"), "transpose_tiled", {{8, 8, 1}, {32, 8, 1}},
                    {KernelArg::of(out), KernelArg::of(inb), KernelArg::of(n)}, memory, options, testing::recorder_factory());
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_EQ(report->blocks_run, 3u);
  EXPECT_EQ(report->workers, 2);
  auto all = testing::merged(*report);
  EXPECT_EQ(all.blocks, 3);
  // 8 warps x (4 global loads + 4 shared stores + 4 shared loads + 4 global stores).
  EXPECT_EQ(all.accesses.size(), 3u * 8 * 16);
}

// Thread 0 of each block takes a global lock (atom.cas until it reads 0), adds one to a
// counter, releases it (atom.exch), as Triton's layernorm backward does with its partial
// sums. With blocks on parallel workers, a block would spin while another worker's block
// holds the lock, as often as the threads' timing has it; in block order on one worker each
// block takes the lock at its first try.
constexpr const char* kSpinLock = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry lock_count(.param .u64 lock_count_param_0, .param .u64 lock_count_param_1)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [lock_count_param_0];
	ld.param.u64 %rd2, [lock_count_param_1];
	mov.u32 %r1, %tid.x;
	setp.ne.s32 %p1, %r1, 0;
	@%p1 bra DONE;
SPIN:
	atom.global.cas.b32 %r2, [%rd1], 0, 1;
	setp.ne.s32 %p2, %r2, 0;
	@%p2 bra SPIN;
	ld.volatile.global.u32 %r3, [%rd2];
	add.s32 %r4, %r3, 1;
	st.volatile.global.u32 [%rd2], %r4;
	membar.gl;
	atom.global.exch.b32 %r5, [%rd1], 0;
DONE:
	ret;
}
)";

TEST(Run, BlocksWaitingOnEachOtherRunInOrderOnOneWorker) {
  auto m = ptx::parse(kSpinLock, "lock.ptx");
  ASSERT_TRUE(m) << m.error().render();
  for (int attempt = 0; attempt < 3; ++attempt) {
    GlobalMemory memory;
    auto lock = memory.allocate(4, "lock");
    auto counter = memory.allocate(4, "counter");
    RunOptions options;
    options.workers = 4;
    auto report = run(*m, "lock_count", {{256, 1, 1}, {32, 1, 1}}, {KernelArg::of(lock), KernelArg::of(counter)},
                      memory, options);
    ASSERT_TRUE(report) << report.error().render();
    EXPECT_TRUE(report->diagnostics.empty()) << diagnostics_text(*report);
    EXPECT_EQ(report->workers, 1);
    EXPECT_EQ(read_buffer<std::uint32_t>(memory, counter)[0], 256u);
    std::uint64_t tries = 0;
    for (std::size_t pc = 0; pc < report->instructions.size(); ++pc)
      if (report->instructions[pc] && report->instructions[pc]->text.find("atom.global.cas") != std::string::npos)
        tries += report->executed[pc];
    EXPECT_EQ(tries, 256u);  // one per block: the fewest
  }
}

TEST(Run, AtomicsThatDecideNoBranchKeepParallelWorkers) {
  // A loop of atomic adds whose results decide nothing (the loop counts to 4): the blocks'
  // order changes no figure, they stay on parallel workers.
  const std::string text = R"(.version 8.0
.target sm_90
.address_size 64
.visible .entry add_loop(.param .u64 add_loop_param_0)
{
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<4>;
	ld.param.u64 %rd1, [add_loop_param_0];
	mov.u32 %r1, 0;
LOOP:
	atom.global.add.u32 %r2, [%rd1], 1;
	add.s32 %r1, %r1, 1;
	setp.lt.s32 %p1, %r1, 4;
	@%p1 bra LOOP;
	ret;
}
)";
  auto m = ptx::parse(text, "add_loop.ptx");
  ASSERT_TRUE(m) << m.error().render();
  GlobalMemory memory;
  auto counter = memory.allocate(4, "counter");
  RunOptions options;
  options.workers = 4;
  auto report = run(*m, "add_loop", {{64, 1, 1}, {32, 1, 1}}, {KernelArg::of(counter)}, memory, options);
  ASSERT_TRUE(report) << report.error().render();
  EXPECT_EQ(report->workers, 4);
  EXPECT_EQ(read_buffer<std::uint32_t>(memory, counter)[0], 64u * 32 * 4);
}

}  // namespace
}  // namespace warpscope::emu
