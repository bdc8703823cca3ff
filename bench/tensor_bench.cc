// tensor_bench.cc: emulating tensor-core GEMMs of 1024^3 (2^30 multiply-adds), priced with
// the listener `warpscope kernel` uses: our wgmma GEMM (corpus/tensor/wgmma_gemm.cu: 4096
// warpgroup wgmmas of m64n128k16, cp.async into 128B-swizzled tiles) and our mma.sync GEMM
// (corpus/tensor/mma_gemm.cu: 524288 warp mma.sync of m16n8k16 fed by ldmatrix).
//
//   tensor_bench --benchmark_counter_tabular=true
//   macs_per_s: multiply-adds of the product per second (the GEMM's 2^30 per run)
#include <benchmark/benchmark.h>

#include <memory>
#include <string>

#include "analysis/cost_listener.h"
#include "emu/launch.h"
#include "model/access_cost.h"
#include "ptx/parser.h"

namespace {

using namespace warpscope;

const ptx::Module& corpus(const char* name) {
  auto parsed = ptx::parse_file(std::string(WARPSCOPE_SOURCE_DIR) + "/corpus/tensor/" + name + ".ptx");
  if (!parsed) std::abort();
  return *new ptx::Module(std::move(*parsed));
}

void run_gemm(benchmark::State& state, const ptx::Module& m, const char* kernel, std::uint32_t dynamic_shared,
              bool padded_flag) {
  const int n = 1024;
  emu::GlobalMemory memory;
  auto a = memory.allocate(std::uint64_t(n) * n * 2, "A");
  auto b = memory.allocate(std::uint64_t(n) * n * 2, "B");
  auto c = memory.allocate(std::uint64_t(n) * n * 2, "C");
  emu::RunOptions options;
  options.workers = static_cast<int>(state.range(0));
  const emu::ListenerFactory factory = [] { return std::make_unique<analysis::CostListener>(**model::find_arch("sm_90")); };
  std::vector<emu::KernelArg> args = {emu::KernelArg::of(a), emu::KernelArg::of(b), emu::KernelArg::of(c),
                                      emu::KernelArg::of(n), emu::KernelArg::of(n), emu::KernelArg::of(n)};
  if (padded_flag) args.push_back(emu::KernelArg::of(1));
  double macs = 0;
  for (auto _ : state) {
    auto report = emu::run(m, kernel, {{n / 128, n / 128, 1}, {256, 1, 1}, dynamic_shared}, args, memory, options, factory);
    if (!report || report->failed()) {
      state.SkipWithError("emulation failed");
      return;
    }
    macs += double(n) * n * n;
  }
  state.counters["macs_per_s"] = benchmark::Counter(macs, benchmark::Counter::kIsRate);
}

void BM_WgmmaGemm1024(benchmark::State& state) {
  static const ptx::Module& m = corpus("wgmma_gemm");
  run_gemm(state, m, "wgmma_gemm_f16", 65536 + 1024, false);
}

void BM_MmaSyncGemm1024(benchmark::State& state) {
  static const ptx::Module& m = corpus("mma_gemm");
  run_gemm(state, m, "mma_gemm_f16", 0, true);
}

BENCHMARK(BM_WgmmaGemm1024)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2);
BENCHMARK(BM_MmaSyncGemm1024)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(2);

}  // namespace

BENCHMARK_MAIN();
