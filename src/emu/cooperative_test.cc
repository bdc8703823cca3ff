// cooperative_test.cc: cooperative launches (LaunchConfig::cooperative): every block resident at
// once, the grid workspace behind %envreg1/2, grid barriers (corpus/realworld/grid_sync.cu).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "emu/emu_test_util.h"
#include "emu/special_registers.h"

namespace warpscope::emu {
namespace {

using testing::make_buffer;
using testing::read_buffer;

const ptx::Module& grid_sync_module() {
  static const ptx::Module m = [] {
    auto parsed = ptx::parse_file(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/realworld/grid_sync.ptx");
    EXPECT_TRUE(parsed) << parsed.error().render();
    return parsed ? std::move(*parsed) : ptx::Module{};
  }();
  return m;
}

std::string errors(const RunReport& r) {
  std::string s;
  for (const auto& d : r.diagnostics)
    if (d.severity == Diagnostic::Severity::Error) s += d.message + "\n";
  return s;
}

// this_grid().sync() reads the workspace through %envreg1/2, so the launch is cooperative
// without being told; after each sync every block sees what every other block wrote.
TEST(Cooperative, GridSyncSeesEveryBlocksWrites) {
  const int n = 8192, grid = 16;
  std::vector<float> in(n);
  for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i % 7 + 1);
  GlobalMemory memory;
  auto inb = make_buffer(memory, in, "in");
  auto partial = memory.allocate(grid * 4, "partial");
  auto out = memory.allocate((n + 1) * 4, "out");
  auto report = run(grid_sync_module(), "grid_sync_normalize", {{grid, 1, 1}, {256, 1, 1}},
                    {KernelArg::of(inb), KernelArg::of(partial), KernelArg::of(out), KernelArg::of(n)}, memory);
  ASSERT_TRUE(report) << report.error().render();
  ASSERT_FALSE(report->failed()) << errors(*report);
  double total = 0;
  for (float v : in) total += v;
  auto got = read_buffer<float>(memory, out);
  EXPECT_FLOAT_EQ(got[0], static_cast<float>(total));
  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (std::fabs(got[static_cast<std::size_t>(i) + 1] - in[static_cast<std::size_t>(i)] / static_cast<float>(total)) > 1e-9f) ++wrong;
  EXPECT_EQ(wrong, 0);
  // The workspace is a buffer of its own, after the kernel's.
  bool workspace = false;
  for (const Region& r : report->regions) workspace = workspace || r.name == "grid workspace (cooperative launch)";
  EXPECT_TRUE(workspace);
}

// Blocks run until they spin: each grid barrier's poll runs about twice per block (the
// blocks before the last poll once before it arrives and once after), whatever the work
// between barriers (grid_sync_normalize's block reductions take several turns).
TEST(Cooperative, EachBarrierPollsAboutTwicePerBlock) {
  const int n = 8192, grid = 32;
  GlobalMemory memory;
  auto in = memory.allocate(n * 4, "in");
  auto partial = memory.allocate(grid * 4, "partial");
  auto out = memory.allocate((n + 1) * 4, "out");
  auto recorded = testing::recorder_factory();
  auto report = run(grid_sync_module(), "grid_sync_normalize", {{grid, 1, 1}, {256, 1, 1}},
                    {KernelArg::of(in), KernelArg::of(partial), KernelArg::of(out), KernelArg::of(n)}, memory, {},
                    recorded);
  ASSERT_TRUE(report) << report.error().render();
  ASSERT_FALSE(report->failed()) << errors(*report);
  const testing::Recorder all = testing::merged(*report);
  std::uint64_t polls = 0;
  for (const AccessEvent& e : all.accesses)
    if (e.access.op == model::MemOp::GlobalLoad && e.region >= 0 &&
        report->regions[static_cast<std::size_t>(e.region)].name == "grid workspace (cooperative launch)")
      ++polls;
  // 2 barriers, each polled once or twice per block (blocks taking one turn each in turn
  // would poll about 12 times each here: a block reduction takes that many turns).
  EXPECT_GE(polls, 2u * grid);
  EXPECT_LE(polls, 2u * 2 * grid);
}

// A barrier of the kernel's own (no workspace read): with --cooperative every block is resident
// from the start; without it the blocks run one after another until the first spins past its
// step budget, then the launch runs again with every block at once (the 8 blocks fit on the
// H200), from the memory as it was, and says so. A selection of blocks cannot be rescheduled:
// the first spins forever, and the message says why.
TEST(Cooperative, HandRolledBarrierRunsWithEveryBlockResident) {
  const int n = 2048, grid = 8;
  enum class Mode { Cooperative, Rescheduled, Selected };
  for (Mode mode : {Mode::Cooperative, Mode::Rescheduled, Mode::Selected}) {
    SCOPED_TRACE(static_cast<int>(mode));
    GlobalMemory memory;
    std::vector<float> in(n);
    for (int i = 0; i < n; ++i) in[static_cast<std::size_t>(i)] = static_cast<float>(i);
    auto a = make_buffer(memory, in, "a");
    auto b = memory.allocate(n * 4, "b");
    auto c = memory.allocate(n * 4, "c");
    auto counter = memory.allocate(4, "counter");
    LaunchConfig config{{grid, 1, 1}, {256, 1, 1}};
    config.cooperative = mode == Mode::Cooperative;
    RunOptions options;
    options.step_budget = 200000;
    if (mode == Mode::Selected) options.blocks = {0, 1, 2, 3, 4, 5, 6, 7};
    auto report = run(grid_sync_module(), "grid_barrier_handrolled", config,
                      {KernelArg::of(a), KernelArg::of(b), KernelArg::of(c), KernelArg::of(counter), KernelArg::of(n)},
                      memory, options);
    ASSERT_TRUE(report) << report.error().render();
    if (mode == Mode::Selected) {
      ASSERT_TRUE(report->failed());
      EXPECT_NE(errors(*report).find("--cooperative"), std::string::npos) << errors(*report);
      continue;
    }
    ASSERT_FALSE(report->failed()) << errors(*report);
    const bool warned = std::any_of(report->diagnostics.begin(), report->diagnostics.end(),
                                    [](const Diagnostic& d) { return d.kind == Diagnostic::Kind::Rescheduled; });
    EXPECT_EQ(warned, mode == Mode::Rescheduled);
    EXPECT_EQ(read_buffer<std::uint32_t>(memory, counter)[0] % grid, 0u);  // the first run's arrivals are undone
    auto got = read_buffer<float>(memory, c);
    // c[i] = b[(i + 256) % n], b[p(i)] = a[i] with p the 16 x 16 transpose of each block's tile.
    int wrong = 0;
    for (int i = 0; i < n; ++i) {
      const int j = (i + 256) % n, base = j / 256 * 256, t = j % 256, src = base + (t % 16) * 16 + t / 16;
      if (got[static_cast<std::size_t>(i)] != in[static_cast<std::size_t>(src)]) ++wrong;
    }
    EXPECT_EQ(wrong, 0);
  }
}

// cudaLaunchCooperativeKernel refuses a grid that cannot be resident at once, and every block
// runs (no block selection).
TEST(Cooperative, GridsThatCannotBeResidentAndBlockSelectionsAreRefused) {
  GlobalMemory memory;
  auto a = memory.allocate(4096, "a");
  auto b = memory.allocate(4096, "b");
  const std::vector<KernelArg> args{KernelArg::of(a), KernelArg::of(b), KernelArg::of(1024)};
  // 1024 threads: 2 blocks per SM (64 warps), 264 on the H200.
  auto big = run(grid_sync_module(), "grid_sync_jacobi", {{265, 1, 1}, {1024, 1, 1}}, args, memory);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().message.find("at most 264"), std::string::npos) << big.error().message;
  auto fits = run(grid_sync_module(), "grid_sync_jacobi", {{264, 1, 1}, {64, 1, 1}}, args, memory);
  EXPECT_TRUE(fits) << fits.error().render();
  RunOptions some;
  some.blocks = {0, 1};
  auto selected = run(grid_sync_module(), "grid_sync_jacobi", {{4, 1, 1}, {256, 1, 1}}, args, memory, some);
  ASSERT_FALSE(selected);
  EXPECT_NE(selected.error().message.find("every block runs"), std::string::npos) << selected.error().message;
}

// %envreg1 holds the high half of the workspace's address, %envreg2 the low half
// (cooperative_groups/details/driver_abi.h: load_env_reg64<1, 2>, high first).
TEST(Cooperative, EnvregsHoldTheWorkspaceAddressHighHalfFirst) {
  SregLaunch launch;
  launch.grid_workspace = 0x0000004000000108ull;
  EXPECT_EQ(special_register(ptx::Sreg::Envreg, 1, launch, {}), 0x40u);
  EXPECT_EQ(special_register(ptx::Sreg::Envreg, 2, launch, {}), 0x108u);
  EXPECT_EQ(special_register(ptx::Sreg::Envreg, 0, launch, {}), 0u);
  EXPECT_EQ(special_register(ptx::Sreg::Envreg, 3, launch, {}), 0u);
}

}  // namespace
}  // namespace warpscope::emu
