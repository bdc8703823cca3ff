// trace_bench.cc: the cost model on the accesses real kernels make: the warp accesses of
// the bundled examples (examples/launches.txt, their first 8 blocks each), recorded by the
// emulator once; up to 64 evenly spaced accesses of each launch (every example weighs the
// same, and the sample stays in the cache, as the accesses the emulator prices do), priced
// one by one without the emulator's price cache.
//
//   trace_bench --benchmark_min_time=1
//   items_per_second: warp accesses priced per second on one core
//   (issue target: >= 20 M/s for 4-byte shared accesses, >= 5 M/s for 16-byte ones)
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/launch_options.h"
#include "cli/profile_launches.h"
#include "emu/launch.h"
#include "model/access_cost.h"

namespace {

using namespace warpscope;

struct Recorder : emu::Listener {
  std::vector<model::WarpAccess>* out;
  explicit Recorder(std::vector<model::WarpAccess>* o) : out(o) {}
  void on_access(const emu::AccessEvent& e) override { out->push_back(e.access); }
};

// Each example launch's warp accesses (blocks 0-7), in program order.
const std::vector<std::vector<model::WarpAccess>>& traces() {
  static const std::vector<std::vector<model::WarpAccess>> accesses = [] {
    std::vector<std::vector<model::WarpAccess>> all;
    auto specs = cli::read_launches_file(std::string(WARPSCOPE_SOURCE_DIR) + "/examples/launches.txt");
    if (!specs) {
      std::fprintf(stderr, "trace_bench: %s\n", specs.error().message.c_str());
      std::exit(1);
    }
    // A launch that cannot run is an error, not a smaller trace.
    const auto fail = [](const cli::LaunchSpec& spec, const std::string& why) {
      std::fprintf(stderr, "trace_bench: %s: %s\n", spec.origin.c_str(), why.c_str());
      std::exit(1);
    };
    for (const auto& spec : *specs) {
      auto options = cli::launch_options_from_words(spec.words);
      if (!options) fail(spec, options.error().message);
      options->request.no_sass = true;
      options->quiet = true;
      options->request.jobs = 1;
      options->request.blocks = "0-7";
      auto prepared = cli::prepare_launch(*options, std::cin);
      if (!prepared) fail(spec, prepared.error().message);
      emu::GlobalMemory memory;
      auto args = (*prepared)->arguments(memory);
      if (!args) fail(spec, args.error().message);
      std::vector<model::WarpAccess> one;
      auto report = emu::run((*prepared)->module, (*prepared)->kernel_name, (*prepared)->launch, args->values, memory,
                             (*prepared)->run_options, [&] { return std::make_unique<Recorder>(&one); });
      if (!report) fail(spec, report.error().message);
      all.push_back(std::move(one));
    }
    return all;
  }();
  return accesses;
}

enum Kind { kShared4, kShared16, kSharedAll, kGlobal };

bool wanted(const model::WarpAccess& a, Kind kind) {
  const bool shared = model::space_of(a.op) == model::Space::Shared;
  switch (kind) {
    case kShared4: return shared && a.op != model::MemOp::LdMatrix && a.width <= 4;
    case kShared16: return shared && a.op != model::MemOp::LdMatrix && a.width == 16;
    case kSharedAll: return shared;
    case kGlobal: return !shared;
  }
  return false;
}

void BM_KernelTrace(benchmark::State& state) {
  const auto kind = static_cast<Kind>(state.range(0));
  std::vector<model::WarpAccess> accesses;
  int launches = 0;
  for (const auto& launch : traces()) {
    std::vector<model::WarpAccess> mine;
    for (const auto& a : launch)
      if (wanted(a, kind)) mine.push_back(a);
    const std::size_t step = (mine.size() + 63) / 64;
    for (std::size_t k = 0; k < mine.size(); k += step) accesses.push_back(mine[k]);
    launches += mine.empty() ? 0 : 1;
  }
  if (accesses.empty()) {
    state.SkipWithError("no accesses of this kind in the examples");
    return;
  }
  const model::Arch& arch = **model::find_arch("sm_90");
  std::size_t i = 0;
  for (auto _ : state) {
    const model::AccessCost c = model::price_valid(arch, accesses[i]);
    benchmark::DoNotOptimize(c);
    if (++i == accesses.size()) i = 0;
  }
  state.SetItemsProcessed(state.iterations());
  static const char* names[] = {"shared 1-4 bytes", "shared 16 bytes", "all shared", "global"};
  state.SetLabel(std::string(names[kind]) + ", " + std::to_string(accesses.size()) + " accesses of " +
                 std::to_string(launches) + " launches");
}

BENCHMARK(BM_KernelTrace)->DenseRange(kShared4, kGlobal);

}  // namespace

BENCHMARK_MAIN();
