// ldgsts_cost_test.cc: the LDGSTS rules against the H200's counts (batch 3, per warp
// execution: Source page "L1 Wavefronts Shared", "... Ideal", "L2 Theoretical Sectors
// Global"), and the .cg rule against a brute-force schedule.
#include "model/ldgsts_cost.h"

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace warpscope::model {
namespace {

// Lane l writes `size` bytes at shared(l) from global(l), reading bytes(l) of them.
LdgstsAccess make(bool bypass, int size, const std::function<std::uint64_t(int)>& shared,
                  const std::function<std::uint64_t(int)>& global, const std::function<int(int)>& bytes) {
  LdgstsAccess a;
  a.bypass = bypass;
  a.size = size;
  a.mask = 0xffffffffu;
  for (int l = 0; l < kWarpSize; ++l) {
    a.shared[static_cast<std::size_t>(l)] = shared(l);
    a.src_bytes[static_cast<std::size_t>(l)] = static_cast<std::uint8_t>(bytes(l));
    a.global[static_cast<std::size_t>(l)] = bytes(l) > 0 ? global(l) : 0;
    a.named[static_cast<std::size_t>(l)] = global(l);
  }
  return a;
}

constexpr std::uint64_t kIn = 1u << 20;  // a global buffer, 256-byte aligned
auto all(int n) { return [n](int) { return n; }; }
auto contiguous(std::uint64_t base, std::uint64_t stride) {
  return [base, stride](int l) { return base + stride * static_cast<std::uint64_t>(l); };
}

void expect(const LdgstsAccess& a, int wavefronts, int ideal, int sectors) {
  const LdgstsCost c = price_ldgsts(a);
  EXPECT_EQ(c.wavefronts, wavefronts);
  EXPECT_EQ(c.ideal_wavefronts, ideal);
  EXPECT_EQ(c.sectors, sectors);
}

// corpus/frontend/cp_async_zfill.cu: tile[tid] (16 bytes) from in[gid]; lanes that read
// nothing point past the end of `in`.
TEST(Ldgsts, ZeroFillCases) {
  const auto dst = contiguous(0x400, 16);
  const auto src = contiguous(kIn, 16);
  expect(make(true, 16, dst, src, all(16)), 4, 4, 16);                                  // zfill_full
  expect(make(true, 16, dst, src, all(0)), 4, 4, 0);                                    // zfill_zero_all
  expect(make(true, 16, dst, src, [](int l) { return l < 16 ? 16 : 0; }), 6, 6, 8);    // zfill_upper_zero
  expect(make(true, 16, dst, src, all(8)), 8, 8, 16);                                   // zfill_partial
  // zfill_ignore_odd, whose LDGSTS names `!P0`: seen as every lane reading, the odd lanes all
  // from past_end(in), one 16-byte source for 16 slots in 4 rows
  LdgstsAccess odd = make(true, 16, dst, src, [](int l) { return l % 2 == 0 ? 16 : 0; });
  for (int l = 1; l < kWarpSize; l += 2) odd.named[static_cast<std::size_t>(l)] = kIn + 16u * (64 * 256 + 4096);
  odd.seen = SeenPredicate::AllRead;
  expect(odd, 20, 4, 16);
  // The same lanes seen as held: 4 for the data, 4 runs in each quarter's zero pass.
  odd.seen = SeenPredicate::Lanes;
  expect(odd, 20, 8, 16);
  // zfill_4b_upper_zero: cp.async.ca, 4 bytes into 16-byte slots
  expect(make(false, 4, dst, contiguous(kIn, 4), [](int l) { return l < 16 ? 4 : 0; }), 4, 1, 2);
}

// corpus/frontend/cp_async_zfill_sources.cu (H200, 2026-12-01): its LDGSTS names `!P0`, so
// lanes that read nothing cost as reads of the sources they name: their own addresses (as
// Triton's masked loads) nothing more; one shared address for all of them, a wavefront per slot
// it fills in each row. The sectors stay those read.
TEST(Ldgsts, ZeroLanesSeenAsReadingTheirSources) {
  const auto dst = contiguous(0x400, 16);
  const auto src = contiguous(kIn, 16);
  auto named = [&](const std::function<bool(int)>& zero, bool own, bool swizzle) {
    LdgstsAccess a = make(true, 16, swizzle ? std::function<std::uint64_t(int)>([](int l) {
                                                return 0x400u + 128u * static_cast<unsigned>(l / 8) + 16u * static_cast<unsigned>((l % 8) ^ (l / 8));
                                              })
                                            : std::function<std::uint64_t(int)>(dst),
                          src, [&](int l) { return zero(l) ? 0 : 16; });
    for (int l = 0; l < kWarpSize; ++l)
      if (zero(l) && !own) a.named[static_cast<std::size_t>(l)] = kIn + 294912;
    a.seen = SeenPredicate::AllRead;
    return a;
  };
  const auto odd = [](int l) { return l % 2 == 1; };
  const auto upper = [](int l) { return l >= 16; };
  const auto tail = [](int l) { return l % 8 >= 4; };
  expect(named(odd, true, false), 4, 4, 8 * 2);
  expect(named(upper, true, false), 4, 4, 8);
  expect(named(tail, true, false), 4, 4, 8);
  expect(named(tail, true, true), 4, 4, 8);
  expect(named(odd, false, false), 20, 4, 16);
  expect(named(upper, false, false), 18, 4, 8);
  expect(named(tail, false, false), 20, 4, 8);
  expect(named(tail, false, true), 20, 4, 8);
  // Seen as held (corpus/frontend zfill_upper_zero, `P1`): the zero pass.
  LdgstsAccess held = named(upper, true, false);
  held.seen = SeenPredicate::Lanes;
  expect(held, 6, 6, 8);
}

// `P0`: every lane seen as zero-filling, whatever it reads: the zero pass alone, a run a
// quarter for 16-byte lanes filling rows (corpus/hopper cp_async_predicate.cu: 4, ideal 4, where
// the lines-and-rows rule gives 6 for its rows straddling two lines: cp_async_prologue.cu, `!P0`).
// The sectors stay those read.
TEST(Ldgsts, P0IsSeenAsEveryLaneZeroFilling) {
  // 4 rows of 128 bytes, 1024 bytes apart in global from a 64-byte offset: each row from 2 lines.
  const auto dst = contiguous(0x400, 16);
  const auto src = [](int l) { return kIn + 64u + 1024u * static_cast<unsigned>(l / 8) + 16u * static_cast<unsigned>(l % 8); };
  LdgstsAccess a = make(true, 16, dst, src, all(16));
  expect(a, 8, 4, 16);
  a.seen = SeenPredicate::AllZero;
  expect(a, 4, 4, 16);
}

// A warp none of whose lanes reads, seen as held (`!P1`): the zero pass, whatever its lanes
// name; seen as reading (`!P0`): as reads of what they name. Triton's pipelined A-tile loads
// past the last k step, rows of 64 bytes from 8 lines, 4 lanes a row, into two 64-byte halves
// of each 128-byte shared row (H200 2026-12-02: triton_v_matmul_bf16_64x128x32_s4[_k512], `!P1`,
// 4 an execution; triton_v_matmul_fp8_k512, `!P0`, 8; both 8 an execution that reads).
TEST(Ldgsts, AWarpThatReadsNothing) {
  const auto dst = contiguous(0x400, 16);
  const auto src = [](int l) { return kIn + 512u * static_cast<unsigned>(l / 4) + 16u * static_cast<unsigned>(l % 4); };
  expect(make(true, 16, dst, src, all(16)), 8, 4, 16);
  LdgstsAccess none = make(true, 16, dst, src, all(0));
  expect(none, 4, 4, 0);
  none.seen = SeenPredicate::AllRead;
  expect(none, 8, 4, 0);
}

// corpus/tensor/mma_gemm.cu, warp w of the 128 x 32 A tile and 32 x 128 B tile copies.
TEST(Ldgsts, GemmTileCopies) {
  // A: lane l copies row 8w + l/4, chunk l%4; rows 2048 bytes apart in global.
  auto a_copy = [](std::uint64_t row_bytes, int w) {
    return make(true, 16, [=](int l) { return (8u * w + l / 4) * row_bytes + 16u * (l % 4); },
                [=](int l) { return kIn + (8u * w + l / 4) * 2048 + 16u * (l % 4); }, all(16));
  };
  for (int w = 0; w < 8; ++w) {
    expect(a_copy(64, w), 8, 4, 16);   // pad0: 8 lines of 64 bytes, one wavefront each
    expect(a_copy(80, w), 15, 4, 24);  // pad1: rows 80 bytes apart, odd rows straddle chunks
  }
  // B: lane l copies row 2w + l/16, chunk l%16 (tile after A's 20480 bytes).
  auto b_copy = [](std::uint64_t row_bytes, int w) {
    return make(true, 16, [=](int l) { return 20480 + (2u * w + l / 16) * row_bytes + 16u * (l % 16); },
                [=](int l) { return kIn + (2u * w + l / 16) * 2048 + 16u * (l % 16); }, all(16));
  };
  int pad1 = 0;
  for (int w = 0; w < 8; ++w) {
    expect(b_copy(256, w), 4, 4, 16);
    pad1 += price_ldgsts(b_copy(272, w)).wavefronts;
    EXPECT_EQ(price_ldgsts(b_copy(272, w)).sectors, 24);
  }
  EXPECT_EQ(pad1, 84);  // 10.5 per execution measured
}

// corpus/hopper/cp_async_pipeline.cu modes 0-3 (warp 0, stage 0, i = 0).
TEST(Ldgsts, PipelineModes) {
  // mode 0: lane l -> chunk l of a 512-byte row
  expect(make(true, 16, contiguous(0, 16), contiguous(kIn, 16), all(16)), 4, 4, 16);
  // mode 1: lane l -> row l (512 bytes apart): 8 lanes of a line in one bank group
  expect(make(true, 16, contiguous(0, 512), contiguous(kIn, 16), all(16)), 32, 4, 32);
  // mode 2: 4-byte, lane l -> word l
  expect(make(false, 4, contiguous(0, 4), contiguous(kIn, 4), all(4)), 1, 1, 4);
  // mode 3: lanes 4j+q read row j (512 bytes apart), word 4q; write word (4q)*32 + j
  expect(make(false, 4, [](int l) { return 4u * ((4u * (l % 4)) * 32 + l / 4); },
              [](int l) { return kIn + 512u * (l / 4) + 16u * (l % 4); }, all(4)),
         11, 1, 16);
  // Triton's f32 B tile: 32 lanes from 32 lines, same column, into one shared row
  expect(make(false, 4, contiguous(0, 4), contiguous(kIn + 8, 4096), all(4)), 32, 1, 32);
  // Triton softmax: 32 contiguous words across two lines
  expect(make(false, 4, contiguous(0, 4), contiguous(kIn + 64, 4), all(4)), 1, 1, 4);
}

// The .ca read and write overlap: a bank writes a word once the read wavefront of its line has
// brought it. Triton's tf32 GEMM B tile (corpus/triton variants.py:152, triton_v_matmul_tf32,
// H200 2026-12-02): lane l reads word 4l of a row (4 lines, 4-way in every bank: 4 read
// wavefronts) and writes 512 l (+ 64 for odd lanes) bytes in: 16-way in banks 0 and 16, four
// words of each line. The H200: 16 a warp execution (read + write - 1 would be 19).
TEST(Ldgsts, CachedWritesWaitOnlyForTheirOwnRead) {
  expect(make(false, 4, [](int l) { return 512u * l + (l % 2 ? 64u : 0u); }, contiguous(kIn, 16), all(4)), 16, 1, 16);
}

TEST(Ldgsts, InactiveLanesCostNothing) {
  LdgstsAccess a = make(true, 16, contiguous(0, 16), contiguous(kIn, 16), all(16));
  a.mask = 0;
  expect(a, 0, 0, 0);
  a.mask = 0xffu;  // one quarter
  expect(a, 1, 1, 4);
}

// Outside what a cp.async can be, no figure and no access past the access's lanes: a cp-size
// other than 4, 8 or 16 costs nothing, src-size above cp-size reads cp-size.
TEST(Ldgsts, InvalidSizesCostNothingAndReadNoMoreThanTheCopy) {
  LdgstsAccess odd = make(false, 12, contiguous(0, 16), contiguous(kIn, 16), all(12));
  expect(odd, 0, 0, 0);
  LdgstsAccess over = make(false, 4, contiguous(0, 4), contiguous(kIn, 4), all(200));
  expect(over, 1, 1, 4);
}

// The .cg rule restated: wavefronts move matchings (no sector feeds two chunks, no chunk
// takes two sectors) of one line's edges into one row; the fewest matchings, found by
// backtracking, is the cost. Zero runs counted chunk by chunk.
int fewest_matchings(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& edges) {
  for (int k = 1;; ++k) {
    std::vector<int> color(edges.size(), -1);
    std::function<bool(std::size_t)> assign = [&](std::size_t i) {
      if (i == edges.size()) return true;
      for (int c = 0; c < k; ++c) {
        bool ok = true;
        for (std::size_t j = 0; j < i && ok; ++j)
          ok = !(color[j] == c && (edges[j].first == edges[i].first || edges[j].second == edges[i].second));
        if (!ok) continue;
        color[i] = c;
        if (assign(i + 1)) return true;
      }
      color[i] = -1;
      return false;
    };
    if (assign(0)) return k;
  }
}

LdgstsCost brute_force_bypass(const LdgstsAccess& a) {
  LdgstsCost cost;
  std::set<std::pair<std::uint64_t, std::uint64_t>> groups;  // (line, row)
  std::set<std::tuple<std::uint64_t, std::uint64_t, std::uint64_t>> edges;  // (line, sector, chunk)
  for (int l = 0; l < kWarpSize; ++l) {
    if (!a.reads(l)) continue;
    for (int b = 0; b < a.src_bytes[l]; ++b) {
      const std::uint64_t g = a.global[l] + b, s = a.shared[l] + b;
      groups.insert({g / 128, s / 128});
      edges.insert({g / 128, g / 32, s / 32});
    }
  }
  cost.sectors = static_cast<int>(edges.size());
  for (const auto& [line, row] : groups) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> mine;
    for (const auto& [el, sector, chunk] : edges)
      if (el == line && chunk / 4 == row) mine.push_back({sector, chunk});
    cost.wavefronts += fewest_matchings(mine);
  }
  bool any = false;
  for (int l = 0; l < kWarpSize; ++l) any = any || a.zero_fills(l);
  for (int q = 0; q < 4 && any; ++q) {
    std::set<std::uint64_t> zeroed;
    bool active = false;
    for (int l = 8 * q; l < 8 * q + 8; ++l) {
      active = active || a.active(l);
      if (a.zero_fills(l)) zeroed.insert(a.shared[l]);
    }
    if (!active) continue;
    int runs = 0;
    for (std::uint64_t z : zeroed) runs += zeroed.count(z - 16) == 0 ? 1 : 0;
    cost.wavefronts += std::max(1, runs);
  }
  return cost;
}

TEST(LdgstsProperty, BypassMatchesBruteForce) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 400; ++trial) {
    LdgstsAccess a;
    a.bypass = true;
    a.size = 16;
    a.mask = static_cast<std::uint32_t>(rng()) | (trial % 3 == 0 ? 0xffffffffu : 0u);
    const std::uint64_t row_stride = 16u * (1 + rng() % 40), line_stride = 16u * (1 + rng() % 300);
    const int per_row = 1 + static_cast<int>(rng() % 8), per_line = 1 + static_cast<int>(rng() % 8);
    for (int l = 0; l < kWarpSize; ++l) {
      a.shared[l] = (l / per_row) * row_stride + 16u * (l % per_row) + 16u * (rng() % 2 == 0 ? 0 : rng() % 4);
      a.global[l] = kIn + (l / per_line) * line_stride + 16u * (l % per_line);
      const int kind = static_cast<int>(rng() % 6);
      a.src_bytes[l] = static_cast<std::uint8_t>(kind == 0 ? 0 : kind == 1 ? 8 : kind == 2 ? 4 : 16);
    }
    const LdgstsCost fast = price_ldgsts(a), slow = brute_force_bypass(a);
    ASSERT_EQ(fast.wavefronts, slow.wavefronts) << "trial " << trial;
    ASSERT_EQ(fast.sectors, slow.sectors) << "trial " << trial;
    ASSERT_LE(fast.ideal_wavefronts, fast.wavefronts) << "trial " << trial;
  }
}

// 4-byte .ca copies are one phase: the order of the lanes in it cannot matter.
TEST(LdgstsProperty, CachedCostIgnoresLaneOrderWithinAPhase) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 200; ++trial) {
    LdgstsAccess a = make(
        false, 4, [&](int) { return 4u * (rng() % 512); }, [&](int) { return kIn + 4u * (rng() % 4096); }, all(4));
    LdgstsAccess b = a;
    std::vector<int> perm(kWarpSize);
    for (int l = 0; l < kWarpSize; ++l) perm[l] = l;
    std::shuffle(perm.begin(), perm.end(), rng);
    for (int l = 0; l < kWarpSize; ++l) {
      b.shared[l] = a.shared[perm[l]];
      b.global[l] = a.global[perm[l]];
    }
    EXPECT_EQ(price_ldgsts(a).wavefronts, price_ldgsts(b).wavefronts);
  }
}

// The .ca pipeline restated as a simulation, step by step: read wavefront r brings the words
// of the r-th line (in address order) of each bank; at every step each bank writes one distinct
// word whose data has come; the phase ends with its last write. 4-byte copies: one phase.
int simulated_cached(const LdgstsAccess& a) {
  std::map<std::uint64_t, std::set<std::uint64_t>> lines;  // bank -> lines read
  for (int l = 0; l < kWarpSize; ++l)
    if (a.reads(l)) lines[(a.global[l] / 4) % 32].insert(a.global[l] / 128);
  std::map<std::uint64_t, int> ready;  // shared word -> step its data is there
  for (int l = 0; l < kWarpSize; ++l) {
    if (!a.active(l)) continue;
    int r = 1;
    if (a.reads(l)) {
      const auto& in_bank = lines[(a.global[l] / 4) % 32];
      r = static_cast<int>(std::distance(in_bank.begin(), in_bank.find(a.global[l] / 128))) + 1;
    }
    auto [it, fresh] = ready.emplace(a.shared[l] / 4, r);
    if (!fresh) it->second = std::max(it->second, r);
  }
  int step = 0;
  while (!ready.empty()) {
    ++step;
    std::set<std::uint64_t> banks_busy;
    for (auto it = ready.begin(); it != ready.end();) {
      const std::uint64_t bank = it->first % 32;
      if (it->second <= step && !banks_busy.count(bank)) {
        banks_busy.insert(bank);
        it = ready.erase(it);
      } else {
        ++it;
      }
    }
  }
  return step;
}

TEST(LdgstsProperty, CachedPipelineMatchesAStepByStepSimulation) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 300; ++trial) {
    const unsigned lines = 1 + rng() % 64, rows = 1 + rng() % 64;
    LdgstsAccess a = make(
        false, 4, [&](int) { return 4u * (rng() % (32 * rows)); }, [&](int) { return kIn + 4u * (rng() % (32 * lines)); },
        [&](int) { return rng() % 4 == 0 ? 0 : 4; });
    a.mask = static_cast<std::uint32_t>(rng()) | 1u;
    EXPECT_EQ(price_ldgsts(a).wavefronts, simulated_cached(a)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace warpscope::model
