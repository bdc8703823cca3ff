// loop_regroup_test.cc: a warp's accesses of an unrolled loop, regrouped by the SASS's regions,
// against a brute-force run of the SASS cascade (each lane's iterations walked trip by trip).
#include "analysis/loop_regroup.h"

#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <random>
#include <set>
#include <tuple>

namespace warpscope::analysis {
namespace {

struct Recorder final : MergeAssembler::Sink {
  std::vector<std::pair<std::uint32_t, model::WarpAccess>> runs;  // (pc, access)
  void run(const emu::AccessEvent& at, const model::WarpAccess& access) override { runs.emplace_back(at.pc, access); }
};

const UnrolledLoop kTriangular{{{4, true}, {2, false}, {1, true}}};

// Lane l's iteration i of access `pc` reads address pc << 32 | l << 16 | i.
std::uint64_t address(std::uint32_t pc, int lane, int i) {
  return static_cast<std::uint64_t>(pc) << 32 | static_cast<std::uint64_t>(lane) << 16 | static_cast<std::uint64_t>(i);
}

// What the emulator publishes: iteration i of every lane that has one, each access in turn.
void emulate(LoopRegroup& g, const std::array<int, 32>& trips, const std::vector<std::uint32_t>& pcs, int warp = 0) {
  const int most = *std::max_element(trips.begin(), trips.end());
  for (int i = 0; i < most; ++i)
    for (std::uint32_t pc : pcs) {
      emu::AccessEvent e;
      e.pc = pc;
      e.warp = warp;
      e.access.op = model::MemOp::GlobalLoad;
      e.access.mask = 0;
      for (int l = 0; l < 32; ++l)
        if (trips[static_cast<std::size_t>(l)] > i) {
          e.access.mask |= 1u << l;
          e.access.address[static_cast<std::size_t>(l)] = address(pc, l, i);
        }
      g.add(e, 0, kTriangular);
    }
}

// Brute force: walk the regions as the SASS does (a U-copy loop while U remain, ...), the warp
// running each trip for the lanes still inside; the set of (pc, lanes, addresses) it executes.
std::multiset<std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint64_t>>> sass_run(
    const std::array<int, 32>& trips, const std::vector<std::uint32_t>& pcs) {
  std::multiset<std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint64_t>>> out;
  std::array<int, 32> done{}, left = trips;
  for (const UnrollRegion& r : kTriangular.regions) {
    for (bool again = true; again;) {
      std::uint32_t mask = 0;
      for (int l = 0; l < 32; ++l)
        if (left[static_cast<std::size_t>(l)] >= r.copies) mask |= 1u << l;
      if (mask == 0) break;
      for (int c = 0; c < r.copies; ++c)
        for (std::uint32_t pc : pcs) {
          std::vector<std::uint64_t> a;
          for (int l = 0; l < 32; ++l)
            if ((mask >> l) & 1u) a.push_back(address(pc, l, done[static_cast<std::size_t>(l)] + c));
          out.emplace(pc, mask, a);
        }
      for (int l = 0; l < 32; ++l)
        if ((mask >> l) & 1u) {
          done[static_cast<std::size_t>(l)] += r.copies;
          left[static_cast<std::size_t>(l)] -= r.copies;
        }
      again = r.loop;
    }
  }
  return out;
}

std::multiset<std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint64_t>>> recorded(const Recorder& rec) {
  std::multiset<std::tuple<std::uint32_t, std::uint32_t, std::vector<std::uint64_t>>> out;
  for (const auto& [pc, a] : rec.runs) {
    std::vector<std::uint64_t> addrs;
    for (int l = 0; l < 32; ++l)
      if (a.active(l)) addrs.push_back(a.address[static_cast<std::size_t>(l)]);
    out.emplace(pc, a.mask, addrs);
  }
  return out;
}

TEST(LoopRegroup, RegionTrips) {
  EXPECT_EQ(region_trips(kTriangular, 0), (std::vector<int>{0, 0, 0}));
  EXPECT_EQ(region_trips(kTriangular, 3), (std::vector<int>{0, 1, 1}));
  EXPECT_EQ(region_trips(kTriangular, 4), (std::vector<int>{1, 0, 0}));
  EXPECT_EQ(region_trips(kTriangular, 7), (std::vector<int>{1, 1, 1}));
  EXPECT_EQ(region_trips(kTriangular, 10), (std::vector<int>{2, 1, 0}));
}

// Lanes 0-15 with 4 iterations, 16-31 with 5: the PTX's 5 warp accesses, the SASS's 4 + 1.
TEST(LoopRegroup, DifferentTripCountsRunApart) {
  Recorder rec;
  LoopRegroup g(rec);
  std::array<int, 32> trips{};
  for (int l = 0; l < 32; ++l) trips[static_cast<std::size_t>(l)] = l < 16 ? 4 : 5;
  emulate(g, trips, {7});
  EXPECT_TRUE(rec.runs.empty());  // held until the warp leaves the loop
  g.end_block(0);
  ASSERT_EQ(rec.runs.size(), 5u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(rec.runs[static_cast<std::size_t>(i)].second.mask, 0xffffffffu);
  EXPECT_EQ(rec.runs[4].second.mask, 0xffff0000u);
  EXPECT_EQ(g.regrouped(), 1u);
  // Lane 0 with 2 iterations, lane 1 with 4: a loop trip (lane 1) and the block (lane 0).
  Recorder rec2;
  LoopRegroup g2(rec2);
  std::array<int, 32> two{};
  two[0] = 2;
  two[1] = 4;
  emulate(g2, two, {7});
  g2.end_round(0, 0);
  ASSERT_EQ(rec2.runs.size(), 6u);
  EXPECT_EQ(recorded(rec2), sass_run(two, {7}));
}

// Property: any trip counts, one or more accesses an iteration: what runs is the cascade's.
TEST(LoopRegroupProperty, MatchesTheCascade) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::array<int, 32> trips{};
    const int most = 1 + static_cast<int>(rng() % 40);
    for (auto& t : trips) t = static_cast<int>(rng() % static_cast<unsigned>(most + 1));
    std::vector<std::uint32_t> pcs{3};
    if (round % 2) pcs.push_back(5);
    Recorder rec;
    LoopRegroup g(rec);
    emulate(g, trips, pcs);
    g.end_block(0);
    EXPECT_EQ(recorded(rec), sass_run(trips, pcs)) << "round " << round;
  }
}

// A lane that left the loop and enters it again (an outer loop): two instances, each regrouped.
TEST(LoopRegroup, ReentryStartsAnInstance) {
  Recorder rec;
  LoopRegroup g(rec);
  std::array<int, 32> trips{};
  for (int l = 0; l < 32; ++l) trips[static_cast<std::size_t>(l)] = l % 2 ? 3 : 1;
  emulate(g, trips, {9});
  emulate(g, trips, {9});
  g.end_block(0);
  auto once = sass_run(trips, {9});
  EXPECT_EQ(rec.runs.size(), 2 * once.size());
  EXPECT_EQ(g.regrouped(), 2u);
}

// An access that ran fewer times than another for some lane (a conditional one): as it came.
TEST(LoopRegroup, UnequalCountsRunAsTheyCame) {
  Recorder rec;
  LoopRegroup g(rec);
  std::array<int, 32> trips{};
  trips.fill(5);
  emulate(g, trips, {1, 2});
  emu::AccessEvent extra;
  extra.pc = 2;
  extra.access.mask = 1;
  g.add(extra, 0, kTriangular);
  g.end_block(0);
  EXPECT_EQ(rec.runs.size(), 11u);
  EXPECT_EQ(g.regrouped(), 0u);
}

// A warp's instance past the cap runs as it came, and the rest of it too: the PTX's grouping.
TEST(LoopRegroup, AHugeInstanceRunsAsItCame) {
  Recorder rec;
  LoopRegroup g(rec);
  std::array<int, 32> trips{};
  for (int l = 0; l < 32; ++l) trips[static_cast<std::size_t>(l)] = 5000 + l;
  emulate(g, trips, {4});
  g.end_block(0);
  ASSERT_EQ(rec.runs.size(), 5031u);  // one a PTX iteration
  for (int i = 0; i < 5031; ++i) {
    const model::WarpAccess& a = rec.runs[static_cast<std::size_t>(i)].second;
    const int active = i < 5000 ? 32 : 31 - (i - 5000);
    EXPECT_EQ(std::popcount(a.mask), active) << i;
    if (a.active(31)) EXPECT_EQ(a.address[31], address(4, 31, i)) << i;
  }
  EXPECT_EQ(g.regrouped(), 0u);
}

// A shaped trip's placement: LDS.128 + LDS for words 1..4 start one word before the first.
TEST(LoopRegroup, ShapesArePlacedOverTheirPtxAccesses) {
  const std::vector<std::pair<std::int64_t, int>> trip4{{0, 16}, {16, 4}};
  std::vector<std::pair<std::uint64_t, int>> words;
  for (int w = 1; w <= 4; ++w) words.emplace_back(0x100 + 4 * w, 4);
  EXPECT_EQ(place_shape(trip4, words), std::optional<std::int64_t>(-4));
  // Words 0..3: the LDS would hold none of them; words 2..5: no aligned placement.
  words.clear();
  for (int w = 0; w < 4; ++w) words.emplace_back(0x100 + 4 * w, 4);
  EXPECT_EQ(place_shape(trip4, words), std::nullopt);
  words.clear();
  for (int w = 2; w < 6; ++w) words.emplace_back(0x100 + 4 * w, 4);
  EXPECT_EQ(place_shape(trip4, words), std::nullopt);
}

// One lane's by-4 loop of 15 iterations over words 1..60 with the shaped regions: the SASS's
// 3 x 5 + 3 + 2 loads, each at its aligned place.
TEST(LoopRegroup, ShapedRegionsRunTheirSassLoads) {
  using Shape = std::vector<std::pair<std::int64_t, int>>;
  const UnrolledLoop loop{{{4, true, Shape{{0, 16}, {16, 16}, {32, 16}, {48, 16}, {64, 4}}},
                           {2, false, Shape{{0, 16}, {16, 16}, {32, 4}}},
                           {1, true, Shape{{0, 16}, {16, 4}}}}};
  Recorder rec;
  LoopRegroup g(rec);
  for (int i = 0; i < 15; ++i)
    for (std::uint32_t m = 0; m < 4; ++m) {
      emu::AccessEvent e;
      e.pc = 10 + m;
      e.access.op = model::MemOp::SharedLoad;
      e.access.mask = 1;
      e.access.address[0] = 0x400 + 4 * (1 + 4 * static_cast<std::uint64_t>(i) + m);
      g.add(e, 0, loop);
    }
  g.end_block(0);
  ASSERT_EQ(rec.runs.size(), 20u);
  int wide = 0;
  for (const auto& [pc, a] : rec.runs) {
    EXPECT_EQ(a.address[0] % static_cast<std::uint64_t>(a.width), 0u);
    wide += a.width == 16 ? 1 : 0;
  }
  EXPECT_EQ(wide, 15);
  EXPECT_EQ(rec.runs[0].second.address[0], 0x400u);  // the first trip's LDS.128 at word 0
}

}  // namespace
}  // namespace warpscope::analysis
