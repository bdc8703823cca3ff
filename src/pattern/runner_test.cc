// runner_test.cc: the seed articles' examples end to end, with figures worked out by hand.
#include "pattern/runner.h"

#include <gtest/gtest.h>

#include "pattern/test_util.h"

namespace warpscope::pattern {
namespace {

using testing::analyze_text;
using testing::only_behaviour;

PatternReport report_of(const std::string& text) {
  auto r = analyze_text(text);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().render());
  return r.ok() ? std::move(*r) : PatternReport{};
}

struct SharedFigures {
  int wavefronts, ideal, degree;
};

// The one behaviour of the one access in `text`.
SharedFigures shared_figures(const std::string& text) {
  PatternReport r = report_of(text);
  if (r.statements.size() != 1 || r.statements[0].behaviours.size() != 1 || !only_behaviour(r).cost.shared) {
    ADD_FAILURE() << "expected one shared behaviour: " << text;
    return {-1, -1, -1};
  }
  const auto& c = *only_behaviour(r).cost.shared;
  return {c.wavefronts, c.ideal_wavefronts, c.worst_degree};
}

void expect_shared(const std::string& text, int wavefronts, int ideal, int degree) {
  const SharedFigures f = shared_figures(text);
  EXPECT_EQ(f.wavefronts, wavefronts) << text;
  EXPECT_EQ(f.ideal, ideal) << text;
  if (degree > 0) EXPECT_EQ(f.degree, degree) << text;
}

// float s[]: 32 lanes x 4 bytes fit one 128-byte wavefront unless two lanes need different
// words of one bank (bank = word % 32).
TEST(Runner, FloatArrayStrides) {
  expect_shared("shared float s[1024]\nload s[lane]", 1, 1, 1);
  expect_shared("shared float s[1024]\nload s[lane*2]", 2, 1, 2);    // lanes 0 and 16 -> words 0, 32
  expect_shared("shared float s[1024]\nload s[lane*32]", 32, 1, 32); // every lane in bank 0
  expect_shared("shared float s[1024]\nload s[0]", 1, 1, 1);         // one word: broadcast
}

TEST(Runner, StrideTwoNamesTheCollidingLanes) {
  PatternReport r = report_of("shared float s[1024]\nload s[lane*2]");
  const Behaviour& b = only_behaviour(r);
  EXPECT_EQ(b.cost.shared->worst_bank, 0);
  EXPECT_EQ(b.cost.shared->colliding_lanes, (1u << 0) | (1u << 16));
  EXPECT_EQ(b.cost.shared->bank_conflicts(), 1);
  EXPECT_EQ(b.lanes[16].address, 128u);
  EXPECT_EQ(b.lanes[16].bank, 0);
  EXPECT_EQ(b.lanes[17].bank, 2);
  EXPECT_EQ(b.diagram.bank_load[0], 2);
  EXPECT_EQ(b.diagram.bank_load[1], 0);
  ASSERT_EQ(b.diagram.rows.size(), 2u);
  EXPECT_EQ(b.diagram.rows[0][0].lane, 0);
  EXPECT_EQ(b.diagram.rows[1][0].lane, 16);
  EXPECT_EQ(b.diagram.rows[1][2].lane, 17);
  EXPECT_EQ(b.diagram.rows[0][1].lane, -1);
}

TEST(Runner, BroadcastIsMarkedInTheDiagram) {
  PatternReport r = report_of("shared float s[32]\nload s[0]");
  const Behaviour& b = only_behaviour(r);
  ASSERT_EQ(b.diagram.rows.size(), 1u);
  EXPECT_EQ(b.diagram.rows[0][0].lane, 0);
  EXPECT_EQ(b.diagram.rows[0][0].sharers, 32);
}

// tile[32][32] read as tile[tx][ty] by a 32x8 block: in warp w, lane tx reads word
// tx*32 + w, all in bank w: 32-way in every warp. Padding the row to 33 words moves lane tx
// to bank (tx + w) % 32: conflict-free. The XOR swizzle stores column c of row r at c ^ r.
TEST(Runner, TransposeTile) {
  const std::string header = "block 32 8\n";
  PatternReport r = report_of(header + "shared float tile[32][32]\nload tile[tx][ty]");
  ASSERT_EQ(r.statements[0].behaviours.size(), 1u);  // the 8 warps differ only by a bank shift
  const Behaviour& b = only_behaviour(r);
  EXPECT_EQ(b.executions, 8);
  EXPECT_EQ(b.warps, 0xffu);
  EXPECT_EQ(b.cost.shared->wavefronts, 32);
  EXPECT_EQ(b.cost.shared->ideal_wavefronts, 1);
  EXPECT_EQ(b.cost.shared->worst_degree, 32);
  EXPECT_EQ(r.statements[0].total_wavefronts(), 256);
  EXPECT_EQ(r.statements[0].total_ideal_wavefronts(), 8);

  PatternReport padded = report_of(header + "shared float tile[32][33]\nload tile[tx][ty]");
  EXPECT_EQ(padded.statements[0].total_wavefronts(), 8);
  for (const Behaviour& pb : padded.statements[0].behaviours) EXPECT_EQ(pb.cost.shared->wavefronts, 1);

  // Swizzled: each warp sees its own permutation of banks (distinct behaviours), all conflict-free.
  for (const char* access : {"load tile[tx][ty ^ tx]", "load tile[ty][tx ^ ty]"}) {
    PatternReport swizzled = report_of(header + "shared float tile[32][32]\n" + access);
    EXPECT_EQ(swizzled.statements[0].total_wavefronts(), 8) << access;
    EXPECT_EQ(swizzled.statements[0].executions(), 8) << access;
    for (const Behaviour& sb : swizzled.statements[0].behaviours) EXPECT_EQ(sb.cost.shared->worst_degree, 1) << access;
  }
}

// expect_shared's degree 0 skips the degree check.
// Wide elements: 8-byte loads move 256 bytes (2 wavefronts at best), 16-byte loads 512 (4).
TEST(Runner, ElementWidths) {
  expect_shared("shared double d[64]\nload d[lane]", 2, 2, 0);  // degree: depends on the lane grouping
  expect_shared("shared float4 v[64]\nload v[lane]", 4, 4, 0);
  expect_shared("shared char c[128]\nload c[lane]", 1, 1, 1);
  expect_shared("shared half h[64]\nload h[lane]", 1, 1, 1);
}

TEST(Runner, Float4LanesTouchFourBanks) {
  PatternReport r = report_of("shared float4 v[64]\nload v[lane]");
  const Behaviour& b = only_behaviour(r);
  EXPECT_EQ(r.statements[0].width, 16);
  EXPECT_EQ(b.lanes[1].address, 16u);
  EXPECT_EQ(b.lanes[1].bank, 4);
  EXPECT_EQ(b.lanes[1].banks, 4);
}

// Global: 32 consecutive floats are 128 bytes = 4 sectors; stride 2 touches 8 for the same 128.
TEST(Runner, GlobalCoalescing) {
  PatternReport r = report_of("global float a[4096]\nload a[lane]\nload a[lane*2]\nstore a[lane + 1]");
  ASSERT_EQ(r.statements.size(), 3u);
  const auto& coalesced = *r.statements[0].behaviours.at(0).cost.global;
  EXPECT_EQ(coalesced.requests, 1);
  EXPECT_EQ(coalesced.sectors, 4);
  EXPECT_EQ(coalesced.ideal_sectors, 4);
  EXPECT_EQ(coalesced.lines, 1);
  const auto& strided = *r.statements[1].behaviours.at(0).cost.global;
  EXPECT_EQ(strided.sectors, 8);
  EXPECT_EQ(strided.ideal_sectors, 4);
  EXPECT_EQ(strided.lines, 2);
  EXPECT_EQ(strided.cause, model::Coalescing::Stride);
  EXPECT_DOUBLE_EQ(strided.efficiency(), 0.5);
  const auto& shifted = *r.statements[2].behaviours.at(0).cost.global;
  EXPECT_EQ(shifted.sectors, 5);  // bytes 4..131
  EXPECT_EQ(shifted.cause, model::Coalescing::Misalignment);
  EXPECT_EQ(r.statements[2].op, model::MemOp::GlobalStore);
  EXPECT_EQ(r.statements[0].behaviours[0].lanes[31].sector, 3u);
}

TEST(Runner, GlobalArraysStartOn256ByteBoundaries) {
  PatternReport r = report_of("global float a[3]\nglobal float b[64]\nload b[lane]");
  EXPECT_EQ(r.statements[0].base, 256u);
  EXPECT_EQ(only_behaviour(r).cost.global->sectors, 4);
}

TEST(Runner, MaskAndPredicateDeactivateLanes) {
  // Lanes 0..15 at stride 2 read words 0..30: one per bank.
  expect_shared("shared float s[1024]\nmask 0x0000ffff\nload s[lane*2]", 1, 1, 1);
  expect_shared("shared float s[1024]\nload s[lane*2] if tx < 16", 1, 1, 1);
  PatternReport r = report_of("shared float s[1024]\nload s[lane*2] if lane % 2 == 0");
  EXPECT_EQ(only_behaviour(r).access.mask, 0x55555555u);
  EXPECT_FALSE(only_behaviour(r).lanes[1].active);
}

TEST(Runner, PartialLastWarpAndIdleWarps) {
  PatternReport r = report_of("block 48\nshared float s[64]\nload s[tid]");
  ASSERT_EQ(r.statements[0].behaviours.size(), 2u);
  EXPECT_EQ(r.statements[0].behaviours[1].access.mask, 0x0000ffffu);
  EXPECT_EQ(r.statements[0].behaviours[1].first_warp, 1);

  PatternReport idle = report_of("block 64\nshared float s[64]\nload s[lane] if warp == 0");
  EXPECT_EQ(idle.statements[0].executions(), 1);
  EXPECT_EQ(idle.statements[0].idle_executions, 1);
}

TEST(Runner, ThreadIndicesFollowBlockShape) {
  // 8x4x2 block: warp 1 is tz = 1; tid = tx + ty*8 + tz*32.
  PatternReport r = report_of("block 8 4 2\nshared int s[64]\nload s[tx + ty*8 + tz*32]");
  ASSERT_EQ(r.statements[0].behaviours.size(), 1u);  // warp 1 is warp 0 shifted by 128 bytes
  EXPECT_EQ(r.statements[0].behaviours[0].executions, 2);
  EXPECT_EQ(only_behaviour(r).cost.shared->wavefronts, 1);
}

TEST(Runner, LoopsRunEveryIterationAndGroupBehaviours) {
  // Stride k+1: k=0 -> 1 wavefront, k=1 -> 2, k=2 (stride 3) -> 1, k=3 (stride 4) -> 4.
  PatternReport r = report_of("shared float s[1024]\nfor k in 0..4\nload s[lane * (k + 1)]");
  const StatementReport& s = r.statements[0];
  EXPECT_EQ(s.iterations, 4);
  ASSERT_EQ(s.behaviours.size(), 4u);
  EXPECT_EQ(s.behaviours[3].first_iteration, std::vector<std::int64_t>{3});
  EXPECT_EQ(s.behaviours[3].cost.shared->wavefronts, 4);
  EXPECT_EQ(s.total_wavefronts(), 1 + 2 + 1 + 4);

  // The same pattern shifted each iteration is one behaviour.
  PatternReport shifted = report_of("shared float s[8][32]\nfor k in 0..8 step 2\nload s[k][lane]");
  ASSERT_EQ(shifted.statements[0].behaviours.size(), 1u);
  EXPECT_EQ(shifted.statements[0].behaviours[0].executions, 4);

  // Two loops: 2 x 3 iterations, the inner one fastest.
  PatternReport nested = report_of("shared float s[64]\nfor i in 0..2\nfor j in 0..3\nload s[i*3 + j]");
  EXPECT_EQ(nested.statements[0].iterations, 6);
  EXPECT_EQ(nested.statements[0].behaviours.size(), 1u);
}

TEST(Runner, SharedAtomicsAndLdmatrix) {
  // Value-returning atomics on one address serialize lanes; the aggregated form does not.
  expect_shared("shared int s[32]\natomic s[0]", 32, 1, 32);
  expect_shared("shared int s[32]\natomic_agg s[0]", 1, 1, 1);
  expect_shared("shared int s[32]\natomic s[lane]", 1, 1, 1);
  // ldmatrix.x4: four 8-lane groups of 16-byte rows. Rows 16 bytes apart fill one wavefront
  // per group; rows 128 bytes apart all start in bank 0: 8-way per group.
  expect_shared("shared half m[32][8]\nldmatrix.x4 m[lane][0]", 4, 4, 1);
  expect_shared("shared half m[32][64]\nldmatrix.x4 m[lane][0]", 32, 4, 8);
  expect_shared("shared half m[32][64]\nldmatrix.x1 m[lane % 8][0]", 8, 1, 8);
}

struct RunError {
  std::string text;
  int line, column;
  std::string message;
};

TEST(Runner, ErrorsPointAtTheStatement) {
  const RunError cases[] = {
      {"shared float s[32]\nload s[lane + 1]", 2, 8,
       "index 32 is out of bounds for dimension 0 of s[32] (warp 0 lane 31: tx=31 ty=0 tz=0)"},
      {"block 32 2\nshared float t[32][32]\nfor k in 0..4\nload t[ty][lane - k]", 4, 12,
       "index -1 is out of bounds for dimension 1 of t[32][32] (warp 0 lane 0: tx=0 ty=0 tz=0 k=1)"},
      {"shared float s[32]\nload s[31 / (3 - lane) & 0]", 2, 11, "division by zero"},
      {"shared float s[32]\nload s[0] if 1 % (lane - 1)", 2, 16, "remainder by zero"},
      {"shared float s[32]\nfor i in 0..100000\nfor j in 0..100000\nload s[0]", 4, 1,
       "too much work: more than 1048576 warp executions (warps x loop iterations) up to here"},
      {"shared char s[32]\natomic s[lane]", 2, 1,
       "atoms of s[32]: shared atomics are modelled for 4- and 8-byte operands only, not 1"},
      {"shared half m[32][4]\nldmatrix.x1 m[lane][0]", 2, 1, "ldsm of m[32][4]: lane 1: address 8 is not aligned to 16 bytes"},
  };
  for (const RunError& c : cases) {
    auto r = analyze_text(c.text);
    ASSERT_FALSE(r.ok()) << c.text;
    EXPECT_EQ(r.error().message, c.message) << c.text;
    EXPECT_EQ(r.error().where.file, "test.ws");
    EXPECT_EQ(r.error().where.line, c.line) << c.text;
    EXPECT_EQ(r.error().where.column, c.column) << c.text;
  }
}

TEST(Runner, WorkLimitIsAParameter) {
  RunLimits small;
  small.max_warp_executions = 8;
  EXPECT_TRUE(analyze_text("block 256\nshared float s[256]\nload s[tid]", small).ok());
  EXPECT_FALSE(analyze_text("block 288\nshared float s[288]\nload s[tid]", small).ok());
}

}  // namespace
}  // namespace warpscope::pattern
