// model_bench.cc: how many warp accesses per second the cost model prices on one core.
// Issue target: >= 20 M/s for 4-byte accesses, >= 5 M/s for 16-byte ones. trace_bench prices
// the accesses of the example kernels instead of synthetic ones.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "model/access_cost.h"
#include "model/ldgsts_cost.h"

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

// cp.async (LDGSTS), priced per warp execution by its own rules (model/ldgsts_cost.h):
// .cg 16-byte copies of 512-byte rows, of 64-byte rows from 8 lines, with the upper half-warp
// zero-filled, and seen as every lane reading its named source; .ca 4-byte copies of a row,
// and the tf32 B-tile pattern (4-way reads, 16-way writes).
enum CopyPattern { kCgRow, kCgShortRows, kCgHalfZero, kCgSeenRead, kCaRow, kCaConflict };

LdgstsAccess make_copy(CopyPattern p) {
  LdgstsAccess a;
  a.bypass = p < kCaRow;
  a.size = a.bypass ? 16 : 4;
  a.mask = 0xffffffffu;
  for (int l = 0; l < kWarpSize; ++l) {
    const auto i = static_cast<std::size_t>(l);
    const auto u = static_cast<std::uint64_t>(l);
    a.shared[i] = p == kCaConflict ? 512 * u + (l % 2 ? 64 : 0) : u * static_cast<std::uint64_t>(a.size);
    a.global[i] = a.named[i] = (1u << 20) + (p == kCgShortRows ? 512 * (u / 4) + 16 * (u % 4) : 16 * u);
    a.src_bytes[i] = static_cast<std::uint8_t>(p == kCgHalfZero && l >= 16 ? 0 : a.size);
  }
  if (p == kCgSeenRead) {
    for (int l = 16; l < kWarpSize; ++l) a.src_bytes[static_cast<std::size_t>(l)] = 0;
    a.seen = SeenPredicate::AllRead;
  }
  return a;
}

void BM_Ldgsts(benchmark::State& state) {
  const LdgstsAccess a = make_copy(static_cast<CopyPattern>(state.range(0)));
  for (auto _ : state) {
    const LdgstsCost c = price_ldgsts(a);
    benchmark::DoNotOptimize(c);
  }
  state.SetItemsProcessed(state.iterations());
  static const char* names[] = {".cg rows", ".cg 64-byte rows", ".cg half zero-filled", ".cg seen reading",
                                ".ca row", ".ca 4-way read, 16-way write"};
  state.SetLabel(names[state.range(0)]);
}

BENCHMARK(BM_Ldgsts)->DenseRange(kCgRow, kCaConflict);
BENCHMARK(BM_SharedLoad4)->DenseRange(kUnitStride, kMix);
BENCHMARK(BM_SharedLoad16)->DenseRange(kUnitStride, kMix);
BENCHMARK(BM_SharedStore8)->Arg(kMix);
BENCHMARK(BM_GlobalLoad4)->Arg(kUnitStride)->Arg(kMix);
BENCHMARK(BM_GlobalLoad16)->Arg(kUnitStride)->Arg(kMix);

}  // namespace

BENCHMARK_MAIN();
