// pattern_bench.cc: the pattern runner end to end (parse, evaluate 32 lanes, price, group).
#include <benchmark/benchmark.h>

#include "model/arch.h"
#include "pattern/runner.h"

namespace {

using namespace warpscope;

// A 32x32 block (32 warps) reading a padded tile in a 32-iteration loop: 1024 warp accesses.
void BM_PatternTransposeLoop(benchmark::State& state) {
  const pattern::Source source("bench.ws",
                               "block 32 32\nshared float tile[32][33]\nfor k in 0..32\nload tile[(tx + k) % 32][ty]\n");
  const model::Arch& arch = **model::find_arch("sm_90");
  for (auto _ : state) {
    auto report = pattern::analyze(source, arch);
    benchmark::DoNotOptimize(report);
  }
  state.SetItemsProcessed(state.iterations() * 1024);  // warp accesses
}
BENCHMARK(BM_PatternTransposeLoop);

}  // namespace

BENCHMARK_MAIN();
