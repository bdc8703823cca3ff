// model_bench.cc: how many warp accesses per second the cost model prices on one core.
// Issue target: >= 20 M/s for 4-byte accesses, >= 5 M/s for 16-byte ones.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "model/access_cost.h"

namespace {

using namespace warpscope::model;

// A mix like real kernels: mostly regular strides, some broadcast and random patterns.
std::vector<WarpAccess> make_accesses(MemOp op, int width, int count) {
  std::mt19937 rng(42);
  std::vector<WarpAccess> out;
  for (int i = 0; i < count; ++i) {
    WarpAccess a;
    a.op = op;
    a.width = width;
    const int kind = i % 4;
    const std::uint64_t stride = static_cast<std::uint64_t>(width) * (1u << (rng() % 6));
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (kind == 0) a.address[lane] = static_cast<std::uint64_t>(lane) * static_cast<std::uint64_t>(width);
      else if (kind == 1) a.address[lane] = static_cast<std::uint64_t>(lane) * stride;
      else if (kind == 2) a.address[lane] = 64;
      else a.address[lane] = (rng() % 2048) * static_cast<std::uint64_t>(width);
    }
    out.push_back(a);
  }
  return out;
}

void price_many(benchmark::State& state, MemOp op, int width) {
  const Arch& arch = **find_arch("sm_90");
  const auto accesses = make_accesses(op, width, 1024);
  std::size_t i = 0;
  for (auto _ : state) {
    const AccessCost c = price_valid(arch, accesses[i++ & 1023]);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_SharedLoad4(benchmark::State& s) { price_many(s, MemOp::SharedLoad, 4); }
void BM_SharedLoad16(benchmark::State& s) { price_many(s, MemOp::SharedLoad, 16); }
void BM_SharedStore8(benchmark::State& s) { price_many(s, MemOp::SharedStore, 8); }
void BM_GlobalLoad4(benchmark::State& s) { price_many(s, MemOp::GlobalLoad, 4); }
void BM_GlobalLoad16(benchmark::State& s) { price_many(s, MemOp::GlobalLoad, 16); }

BENCHMARK(BM_SharedLoad4);
BENCHMARK(BM_SharedLoad16);
BENCHMARK(BM_SharedStore8);
BENCHMARK(BM_GlobalLoad4);
BENCHMARK(BM_GlobalLoad16);

}  // namespace

BENCHMARK_MAIN();
