// global_cost_test.cc: sectors, lines and the cause of excess, by example; the model (AVX2
// where the CPU has it) and its portable version against a brute-force count.
#include "model/global_cost.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <vector>

#include "model/test_util.h"

namespace warpscope::model {
namespace {

using testing::global_of;
using testing::make_access;

TEST(GlobalCost, CoalescedFloats) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return 4u * l; }));
  EXPECT_EQ(c.requests, 1);
  EXPECT_EQ(c.sectors, 4);
  EXPECT_EQ(c.ideal_sectors, 4);
  EXPECT_EQ(c.lines, 1);
  EXPECT_DOUBLE_EQ(c.efficiency(), 1.0);
  EXPECT_EQ(c.cause, Coalescing::Coalesced);
}

TEST(GlobalCost, StrideTwoHalvesEfficiency) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return 8u * l; }));
  EXPECT_EQ(c.sectors, 8);
  EXPECT_EQ(c.ideal_sectors, 4);
  EXPECT_DOUBLE_EQ(c.efficiency(), 0.5);
  EXPECT_EQ(c.cause, Coalescing::Stride);
}

TEST(GlobalCost, MisalignedBaseCostsOneSector) {
  const auto c = global_of(make_access(MemOp::GlobalStore, 4, [](int l) { return 4u + 4u * l; }));
  EXPECT_EQ(c.sectors, 5);
  EXPECT_EQ(c.lines, 2);
  EXPECT_EQ(c.cause, Coalescing::Misalignment);
}

TEST(GlobalCost, ScatterIsNamed) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return (l * 7919u % 32u) * 256u; }));
  EXPECT_EQ(c.sectors, 32);
  EXPECT_EQ(c.cause, Coalescing::Scatter);  // lanes out of order: no stride in lane order
  const auto s = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return l * l * 64u; }));
  EXPECT_EQ(s.cause, Coalescing::Scatter);
}

TEST(GlobalCost, BroadcastMovesOneSector) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 16, [](int) { return 512u; }));
  EXPECT_EQ(c.sectors, 1);
  EXPECT_EQ(c.bytes_requested, 16u);
  EXPECT_EQ(c.ideal_sectors, 1);
}

TEST(GlobalCost, IdealCountsEveryLanesBytesAsNcuDoes) {
  // lanes 2j and 2j+1 read the same float, 32 bytes apart per pair: 16 sectors; ncu's ideal
  // packs all 32 lanes' 4 bytes (4 sectors), not just the 16 distinct floats (2 sectors).
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return 32u * (l / 2); }));
  EXPECT_EQ(c.sectors, 16);
  EXPECT_EQ(c.ideal_sectors, 4);
  EXPECT_EQ(c.bytes_requested, 64u);
}

TEST(GlobalCost, NoActiveLaneNoRequest) {
  const auto c = global_of(make_access(MemOp::GlobalLoad, 4, [](int l) { return 4u * l; }, 0));
  EXPECT_EQ(c.requests, 0);
  EXPECT_EQ(c.sectors, 0);
}

// Sets of sectors, lines and elements; the cause from the active lanes' addresses in order.
GlobalCost brute_force(const WarpAccess& a) {
  GlobalCost c;
  std::set<std::uint64_t> sectors, lines, elements;
  std::vector<std::uint64_t> in_order;
  for (int lane = 0; lane < kWarpSize; ++lane) {
    if (!a.active(lane)) continue;
    const std::uint64_t x = a.address[lane];
    sectors.insert(x / 32);
    lines.insert(x / 128);
    elements.insert(x / static_cast<std::uint64_t>(a.width));
    in_order.push_back(x);
  }
  if (in_order.empty()) return c;
  c.requests = 1;
  c.sectors = static_cast<int>(sectors.size());
  c.lines = static_cast<int>(lines.size());
  c.bytes_requested = static_cast<std::uint32_t>(elements.size() * static_cast<std::size_t>(a.width));
  c.bytes_moved = static_cast<std::uint32_t>(c.sectors * 32);
  c.ideal_sectors = std::min(c.sectors, static_cast<int>((in_order.size() * static_cast<std::size_t>(a.width) + 31) / 32));
  if (c.sectors > c.ideal_sectors) {
    bool constant = true;
    for (std::size_t i = 2; i < in_order.size(); ++i)
      constant &= in_order[i] - in_order[i - 1] == in_order[1] - in_order[0];
    c.cause = in_order.size() < 2 ? Coalescing::Misalignment
              : !constant        ? Coalescing::Scatter
              : in_order[1] - in_order[0] == static_cast<std::uint64_t>(a.width) ? Coalescing::Misalignment
                                                                                  : Coalescing::Stride;
  }
  return c;
}

void expect_same(const GlobalCost& got, const GlobalCost& want, const char* who, int iteration) {
  EXPECT_EQ(got.requests, want.requests) << who << " " << iteration;
  EXPECT_EQ(got.sectors, want.sectors) << who << " " << iteration;
  EXPECT_EQ(got.lines, want.lines) << who << " " << iteration;
  EXPECT_EQ(got.ideal_sectors, want.ideal_sectors) << who << " " << iteration;
  EXPECT_EQ(got.bytes_requested, want.bytes_requested) << who << " " << iteration;
  EXPECT_EQ(got.bytes_moved, want.bytes_moved) << who << " " << iteration;
  EXPECT_EQ(got.cause, want.cause) << who << " " << iteration;
}

TEST(GlobalCost, ModelAndPortableMatchBruteForce) {
  std::mt19937_64 rng(11);
  const std::array<std::uint64_t, 7> spans{64, 1024, 8192, 65536, 1u << 20, 1u << 24, 1ull << 40};
  for (int iteration = 0; iteration < 30000; ++iteration) {
    const int width = 1 << (rng() % 5);
    const auto w = static_cast<std::uint64_t>(width);
    // A base anywhere, often just below a 64 KiB or 1 MiB boundary (windows the AVX2 count uses).
    std::uint64_t base = (rng() % (1ull << 44)) & ~(w - 1);
    if (rng() % 3 == 0) base = ((base >> 16) << 16) - w * (1 + rng() % 64);
    const std::uint64_t span = spans[rng() % spans.size()];
    const std::uint64_t stride = rng() % 2 ? w * (1ull << (rng() % 12)) : w * (rng() % 40);
    const int kind = static_cast<int>(rng() % 6);
    const int broken = static_cast<int>(rng() % 32);
    const std::uint64_t few = 1 + rng() % 4;
    std::uint32_t mask = ~0u;
    switch (rng() % 4) {
      case 0: mask = static_cast<std::uint32_t>(rng()); break;
      case 1: mask = 1u << (rng() % 32); break;
      case 2: mask = 0xffffffffu >> (rng() % 32); break;
      default: break;
    }
    const WarpAccess a = testing::make_access(
        MemOp::GlobalLoad, width,
        [&](int l) -> std::uint64_t {
          const auto lane = static_cast<std::uint64_t>(l);
          switch (kind) {
            case 0: return base + lane * stride;                      // strides, broadcast (0)
            case 1: return base - lane * stride + 31 * stride;        // falling
            case 2: return base + (rng() % (span / w)) * w;           // random in a span
            case 3: return base + (rng() % few) * span / 2 / w * w;   // a few addresses
            case 4: return base + lane * stride + (l == broken ? w : 0);  // a stride broken once
            default: return base + ((lane ^ 1) + (lane % 3)) * w;     // contiguous, shuffled
          }
        },
        mask);
    const GlobalCost want = brute_force(a);
    expect_same(price_global(testing::sm90(), a), want, "model", iteration);
    expect_same(price_global_portable(testing::sm90(), a), want, "portable", iteration);
    if (::testing::Test::HasFailure()) return;
  }
}

// Atomics: lanes on one address are served in passes, each sending its addresses' sectors.
TEST(GlobalCost, AtomicPassesSerializeLanesOnOneAddress) {
  const Arch& arch = testing::sm90();
  // 4 lanes on each of 8 words of one sector: 4 passes of 1 sector (H200: RED.ADD 4 a warp).
  AtomicPasses p = atomic_passes(arch, make_access(MemOp::GlobalReduction, 4, [](int l) { return 4u * (l % 8); }));
  EXPECT_EQ(p.passes, 4);
  EXPECT_EQ(p.sectors, 4);
  // float4 on l % 8: 4 sectors, 4 lanes each: 16 (H200: RED.ADD.F32x4 16 a warp).
  p = atomic_passes(arch, make_access(MemOp::GlobalReduction, 16, [](int l) { return 16u * (l % 8); }));
  EXPECT_EQ(p.sectors, 16);
  // Distinct words: one pass, the distinct sectors.
  p = atomic_passes(arch, make_access(MemOp::GlobalAtomic, 4, [](int l) { return 4u * l; }));
  EXPECT_EQ(p.passes, 1);
  EXPECT_EQ(p.sectors, 4);
  // One address for every lane: 32 passes of one sector (H200: simpleAtomicIntrinsics' ATOMG).
  p = atomic_passes(arch, make_access(MemOp::GlobalAtomic, 4, [](int) { return 64u; }));
  EXPECT_EQ(p.passes, 32);
  EXPECT_EQ(p.sectors, 32);
  // Sectors pass apart: 30 lanes on one word of sector 0, lanes 30 and 31 on two words of
  // sector 1 -> 30 + 1 (the longest run per sector), not 30 x 2.
  p = atomic_passes(arch, make_access(MemOp::GlobalAtomic, 4, [](int l) { return l < 30 ? 0u : 32u + 4u * (l - 30); }));
  EXPECT_EQ(p.passes, 30);
  EXPECT_EQ(p.sectors, 31);
}

// Against brute force: pass k sends the sectors of the addresses more than k lanes use.
TEST(GlobalCost, AtomicPassesMatchBruteForce) {
  std::mt19937 rng(7);
  for (int iteration = 0; iteration < 2000; ++iteration) {
    const unsigned spread = 1u + rng() % 64;
    WarpAccess a = make_access(MemOp::GlobalAtomic, 4, [&](int) { return 4u * (rng() % spread); });
    a.mask = static_cast<std::uint32_t>(rng()) | 1u;
    std::map<std::uint64_t, int> lanes;
    for (int l = 0; l < 32; ++l)
      if (a.active(l)) ++lanes[a.address[static_cast<std::size_t>(l)]];
    int passes = 0, sectors = 0;
    for (const auto& [address, n] : lanes) passes = std::max(passes, n);
    for (int k = 0; k < passes; ++k) {
      std::set<std::uint64_t> s;
      for (const auto& [address, n] : lanes)
        if (n > k) s.insert(address / 32);
      sectors += static_cast<int>(s.size());
    }
    const AtomicPasses p = atomic_passes(testing::sm90(), a);
    ASSERT_EQ(p.passes, passes) << iteration;
    ASSERT_EQ(p.sectors, sectors) << iteration;
  }
}

}  // namespace
}  // namespace warpscope::model
