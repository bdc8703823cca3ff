// emu_bench.cc: emulation speed on a full-grid 1024x1024 transpose (tests/data/ptx).
//
//   emu_bench --benchmark_counter_table=true
//   thread_insts_per_s: thread instructions emulated per second (target >= 200 M/s on 2 cores)
//   Time: one full grid (target < 0.5 s)
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "analysis/cost_listener.h"
#include "analysis/loop_regroup.h"
#include "emu/launch.h"
#include "model/access_cost.h"
#include "ptx/parser.h"

namespace {

using namespace warpscope;

const ptx::Module& load(const char* name) {
  auto parsed = ptx::parse_file(std::string(WARPSCOPE_TEST_DATA) + "/ptx/" + name + ".ptx");
  if (!parsed) std::abort();
  return *new ptx::Module(std::move(*parsed));
}

const ptx::Module& transpose_module() {
  static const ptx::Module& m = load("transpose");
  return m;
}


void run_transpose(benchmark::State& state, const char* kernel, bool price) {
  const int n = 1024;
  emu::GlobalMemory memory;
  auto out = memory.allocate(std::uint64_t(n) * n * 4, "out");
  auto in = memory.allocate(std::uint64_t(n) * n * 4, "in");
  emu::RunOptions options;
  options.workers = static_cast<int>(state.range(0));
  emu::ListenerFactory factory;
  // Prices every access with the listener `warpscope kernel` uses.
  if (price) factory = [] { return std::make_unique<analysis::CostListener>(**model::find_arch("sm_90")); };
  std::uint64_t thread_insts = 0;
  for (auto _ : state) {
    auto report = emu::run(transpose_module(), kernel, {{n / 32, n / 32, 1}, {32, 8, 1}},
                           {emu::KernelArg::of(out), emu::KernelArg::of(in), emu::KernelArg::of(n)}, memory, options,
                           factory);
    if (!report || report->failed()) {
      state.SkipWithError("emulation failed");
      return;
    }
    thread_insts += report->thread_instructions;
  }
  state.counters["thread_insts_per_s"] = benchmark::Counter(static_cast<double>(thread_insts), benchmark::Counter::kIsRate);
}

void BM_TransposeTiled(benchmark::State& state) { run_transpose(state, "transpose_tiled", false); }
void BM_TransposeTiledPriced(benchmark::State& state) { run_transpose(state, "transpose_tiled", true); }
void BM_TransposeNaive(benchmark::State& state) { run_transpose(state, "transpose_naive", false); }

// A compute-bound kernel: 16x16-tiled SGEMM, n = 256 (256 blocks of 256 threads).
void BM_GemmTiled(benchmark::State& state) {
  static const ptx::Module& m = load("kernels2");
  const int n = 256;
  emu::GlobalMemory memory;
  auto a = memory.allocate(std::uint64_t(n) * n * 4, "A");
  auto b = memory.allocate(std::uint64_t(n) * n * 4, "B");
  auto c = memory.allocate(std::uint64_t(n) * n * 4, "C");
  emu::RunOptions options;
  options.workers = static_cast<int>(state.range(0));
  std::uint64_t thread_insts = 0;
  for (auto _ : state) {
    auto report = emu::run(m, "gemm_tiled", {{n / 16, n / 16, 1}, {16, 16, 1}},
                           {emu::KernelArg::of(a), emu::KernelArg::of(b), emu::KernelArg::of(c), emu::KernelArg::of(n)},
                           memory, options);
    if (!report || report->failed()) {
      state.SkipWithError("emulation failed");
      return;
    }
    thread_insts += report->thread_instructions;
  }
  state.counters["thread_insts_per_s"] = benchmark::Counter(static_cast<double>(thread_insts), benchmark::Counter::kIsRate);
}

// A warp's accesses of a loop ptxas unrolled into regions (analysis/loop_regroup.h), held and
// regrouped: triangular.cu's worst case, lane l with 969 + l iterations of 4 loads (within LoopRegroup::kMaxHeld).
struct CountingSink final : analysis::MergeAssembler::Sink {
  std::uint64_t runs = 0;
  void run(const emu::AccessEvent&, const model::WarpAccess&) override { ++runs; }
};

void BM_LoopRegroupTriangular(benchmark::State& state) {
  const analysis::UnrolledLoop loop{{{4, true}, {2, false}, {1, true}}};
  CountingSink sink;
  std::uint64_t events = 0;
  for (auto _ : state) {
    analysis::LoopRegroup g(sink);
    for (int i = 0; i < 1000; ++i)
      for (std::uint32_t pc = 0; pc < 4; ++pc) {
        emu::AccessEvent e;
        e.pc = pc;
        e.access.op = model::MemOp::GlobalLoad;
        e.access.mask = 0;
        for (int l = 0; l < 32; ++l)
          if (969 + l > i) {
            e.access.mask |= 1u << l;
            e.access.address[static_cast<std::size_t>(l)] = 4096u * static_cast<unsigned>(l) + 16u * static_cast<unsigned>(i) + 4 * pc;
          }
        g.add(e, 0, loop);
        ++events;
      }
    g.end_block(0);
  }
  benchmark::DoNotOptimize(sink.runs);
  state.counters["events_per_s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}

BENCHMARK(BM_LoopRegroupTriangular)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_GemmTiled)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TransposeTiled)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TransposeTiledPriced)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_TransposeNaive)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
