// property_test.cc: the model against brute force and against laws that must hold.
//
// The brute-force reference schedules wavefronts the slow, literal way: take the lane
// groups of arch.h; in each wavefront, serve at most one word per bank (every lane that
// wants that word, or one lane at a time for value-returning atomics) until no request is
// left. It shares no code with shared_cost.cc.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <vector>

#include "model/test_util.h"

namespace warpscope::model {
namespace {

using testing::make_access;
using testing::shared_of;
using testing::sm90;

struct Request {
  int lane;
  std::uint64_t word;
};

int brute_force_wavefronts(const WarpAccess& a) {
  const Arch& arch = sm90();
  const bool ldsm = a.op == MemOp::LdMatrix;
  const int words = ldsm ? 4 : std::max(1, a.width / 4);
  const int lanes = ldsm ? 8 * a.width : 32;
  int group = 0;
  if (ldsm) group = 8;
  else if (a.op == MemOp::SharedStore) group = arch.store_group_lanes[static_cast<size_t>(width_index(a.width))];
  else if (a.op == MemOp::SharedLoad) {
    group = arch.load_group_lanes[static_cast<size_t>(width_index(a.width))];
    for (int partner : {1, 2}) {
      bool pairs = true;
      for (int l = 0; l < 32; ++l)
        if (a.active(l) && a.active(l ^ partner) && a.address[l] != a.address[l ^ partner]) pairs = false;
      if (pairs) group = arch.paired_load_group_lanes[static_cast<size_t>(width_index(a.width))];
    }
  } else group = 32;
  int total = 0;
  for (int first = 0; first < lanes; first += group) {
    std::vector<Request> pending;
    for (int l = first; l < std::min(lanes, first + group); ++l)
      if (a.active(l))
        for (int w = 0; w < words; ++w) pending.push_back({l, a.address[l] / 4 + static_cast<std::uint64_t>(w)});
    while (!pending.empty()) {
      ++total;
      std::map<std::uint64_t, std::uint64_t> bank_word;  // bank -> word served this wavefront
      std::set<std::uint64_t> bank_lane_used;
      std::vector<Request> left;
      for (const Request& r : pending) {
        const std::uint64_t bank = r.word % 32;
        if (a.op == MemOp::SharedAtomic) {
          if (bank_lane_used.insert(bank).second) continue;  // one lane per bank per wavefront
          left.push_back(r);
          continue;
        }
        auto [it, inserted] = bank_word.emplace(bank, r.word);
        if (!inserted && it->second != r.word) left.push_back(r);
      }
      pending.swap(left);
    }
  }
  return total;
}

WarpAccess random_access(std::mt19937& rng, MemOp op, int width) {
  const int align = op == MemOp::LdMatrix ? 16 : width;
  const int span = std::uniform_int_distribution<int>(1, 4)(rng) * 256;
  const int distinct = std::uniform_int_distribution<int>(1, 32)(rng);
  std::vector<std::uint64_t> pool(static_cast<size_t>(distinct));
  for (auto& p : pool) p = static_cast<std::uint64_t>(std::uniform_int_distribution<int>(0, span / align - 1)(rng) * align);
  std::uint32_t mask = 0xffffffffu;
  if (op != MemOp::LdMatrix && rng() % 3 == 0) mask = static_cast<std::uint32_t>(rng());
  return make_access(op, width, [&](int) { return pool[rng() % pool.size()]; }, mask);
}

TEST(Property, MatchesBruteForceScheduling) {
  std::mt19937 rng(7);
  const std::pair<MemOp, std::vector<int>> kinds[] = {
      {MemOp::SharedLoad, {1, 2, 4, 8, 16}}, {MemOp::SharedStore, {1, 2, 4, 8, 16}}, {MemOp::LdMatrix, {1, 2, 4}},
      {MemOp::SharedAtomic, {4}},            {MemOp::SharedAtomicAggregated, {4}},
  };
  int checked = 0;
  for (const auto& [op, widths] : kinds)
    for (int width : widths)
      for (int i = 0; i < 400; ++i) {
        const WarpAccess a = random_access(rng, op, width);
        ASSERT_EQ(shared_of(a).wavefronts, brute_force_wavefronts(a))
            << op_name(op) << " width " << width << " case " << i;
        ++checked;
      }
  EXPECT_EQ(checked, 400 * 15);
}

TEST(Property, StridedFloatsConflictGcdWays) {
  for (int stride = 0; stride <= 96; ++stride)
    for (int base : {0, 4, 17}) {
      const auto c = shared_of(make_access(MemOp::SharedLoad, 4, [&](int l) {
        return 4u * static_cast<std::uint64_t>(base + l * stride);
      }));
      const int expected = stride == 0 ? 1 : std::gcd(stride, 32);
      EXPECT_EQ(c.worst_degree, expected) << "stride " << stride;
      EXPECT_EQ(c.wavefronts, expected) << "stride " << stride;
    }
}

TEST(Property, PermutingLanesNeverChangesNarrowAccesses) {
  std::mt19937 rng(11);
  for (int width : {1, 2, 4})
    for (MemOp op : {MemOp::SharedLoad, MemOp::SharedStore, MemOp::SharedAtomic, MemOp::SharedAtomicAggregated}) {
      if (width != 4 && (op == MemOp::SharedAtomic || op == MemOp::SharedAtomicAggregated)) continue;
      for (int i = 0; i < 200; ++i) {
        WarpAccess a = random_access(rng, op, width);
        a.mask = 0xffffffffu;
        WarpAccess b = a;
        std::shuffle(b.address.begin(), b.address.end(), rng);
        EXPECT_EQ(shared_of(a).wavefronts, shared_of(b).wavefronts);
        EXPECT_EQ(shared_of(a).ideal_wavefronts, shared_of(b).ideal_wavefronts);
      }
    }
}

TEST(Property, CostsAreOrdered) {
  std::mt19937 rng(13);
  for (int width : {1, 2, 4, 8, 16})
    for (int i = 0; i < 300; ++i) {
      WarpAccess load = random_access(rng, MemOp::SharedLoad, width);
      WarpAccess store = load;
      store.op = MemOp::SharedStore;
      const auto l = shared_of(load), s = shared_of(store);
      EXPECT_GE(l.bank_conflicts(), 0);
      EXPECT_GE(s.bank_conflicts(), 0);
      EXPECT_LE(l.wavefronts, s.wavefronts);  // loads may pair lanes, stores never do
      EXPECT_GE(l.worst_degree, l.groups > 0 ? 1 : 0);
      // inactive lanes' addresses do not matter
      WarpAccess moved = load;
      for (int lane = 0; lane < 32; ++lane)
        if (!moved.active(lane)) moved.address[lane] = 4096u * static_cast<std::uint64_t>(lane + 1);
      EXPECT_EQ(shared_of(moved).wavefronts, l.wavefronts);
    }
}

TEST(Property, SectorsMatchByteByByteCount) {
  std::mt19937 rng(17);
  for (int width : {1, 2, 4, 8, 16})
    for (int i = 0; i < 300; ++i) {
      const WarpAccess a = random_access(rng, MemOp::GlobalLoad, width);
      std::set<std::uint64_t> sectors, bytes;
      for (int lane = 0; lane < 32; ++lane)
        if (a.active(lane))
          for (int b = 0; b < width; ++b) {
            bytes.insert(a.address[lane] + static_cast<std::uint64_t>(b));
            sectors.insert((a.address[lane] + static_cast<std::uint64_t>(b)) / 32);
          }
      const auto c = testing::global_of(a);
      EXPECT_EQ(c.sectors, static_cast<int>(sectors.size()));
      EXPECT_EQ(c.bytes_requested, bytes.size());
      EXPECT_GE(c.sectors, c.ideal_sectors);
    }
}

}  // namespace
}  // namespace warpscope::model
