// model_bench.cc: how many warp accesses per second the cost model prices on one core.
// Issue target: >= 20 M/s for 4-byte accesses, >= 5 M/s for 16-byte ones. trace_bench prices
// the accesses of the example kernels instead of synthetic ones.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "model/access_cost.h"

namespace {

using namespace warpscope::model;

enum Pattern { kUnitStride, kPowerOfTwoStride, kBroadcast, kRandom, kMix };

// Accesses of one kind: unit stride (conflict-free), power-of-two strides (conflicts),
// one address for all lanes, random addresses in 8 KiB, or a quarter of each.
std::vector<WarpAccess> make_accesses(MemOp op, int width, Pattern pattern, int count) {
  std::mt19937 rng(42);
  std::vector<WarpAccess> out;
  for (int i = 0; i < count; ++i) {
    WarpAccess a;
    a.op = op;
    a.width = width;
    const int kind = pattern == kMix ? i % 4 : pattern;
    const std::uint64_t stride = static_cast<std::uint64_t>(width) * (1u << (rng() % 6));
    for (int lane = 0; lane < kWarpSize; ++lane) {
      if (kind == kUnitStride) a.address[lane] = static_cast<std::uint64_t>(lane) * static_cast<std::uint64_t>(width);
      else if (kind == kPowerOfTwoStride) a.address[lane] = static_cast<std::uint64_t>(lane) * stride;
      else if (kind == kBroadcast) a.address[lane] = 64;
      else a.address[lane] = (rng() % (8192 / static_cast<unsigned>(width))) * static_cast<std::uint64_t>(width);
    }
    out.push_back(a);
  }
  return out;
}

void price_many(benchmark::State& state, MemOp op, int width) {
  const Arch& arch = **find_arch("sm_90");
  const auto accesses = make_accesses(op, width, static_cast<Pattern>(state.range(0)), 1024);
  std::size_t i = 0;
  for (auto _ : state) {
    const AccessCost c = price_valid(arch, accesses[i++ & 1023]);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
  static const char* names[] = {"unit stride", "power-of-two strides", "broadcast", "random", "mix"};
  state.SetLabel(names[state.range(0)]);
}

void BM_SharedLoad4(benchmark::State& s) { price_many(s, MemOp::SharedLoad, 4); }
void BM_SharedLoad16(benchmark::State& s) { price_many(s, MemOp::SharedLoad, 16); }
void BM_SharedStore8(benchmark::State& s) { price_many(s, MemOp::SharedStore, 8); }
void BM_GlobalLoad4(benchmark::State& s) { price_many(s, MemOp::GlobalLoad, 4); }
void BM_GlobalLoad16(benchmark::State& s) { price_many(s, MemOp::GlobalLoad, 16); }

BENCHMARK(BM_SharedLoad4)->DenseRange(kUnitStride, kMix);
BENCHMARK(BM_SharedLoad16)->DenseRange(kUnitStride, kMix);
BENCHMARK(BM_SharedStore8)->Arg(kMix);
BENCHMARK(BM_GlobalLoad4)->Arg(kUnitStride)->Arg(kMix);
BENCHMARK(BM_GlobalLoad16)->Arg(kUnitStride)->Arg(kMix);

}  // namespace

BENCHMARK_MAIN();
