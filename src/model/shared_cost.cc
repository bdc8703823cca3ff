// shared_cost.cc: the lane-group / distinct-words-per-bank rule of arch.h.
#include "model/shared_cost.h"

#include "model/bank_sets.h"

#include <algorithm>
#include <array>

namespace warpscope::model {

namespace {

// True if every active lane whose partner (lane xor `partner`) is active reads the same
// address as that partner.
bool lanes_pair_up(const WarpAccess& a, int partner) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int other = lane ^ partner;
    if (a.active(lane) && a.active(other) && a.address[lane] != a.address[other]) return false;
  }
  return true;
}

// Lanes per group (arch.h), before loads whose lanes pair up.
int unpaired_group_lanes(const Arch& arch, const WarpAccess& a) {
  switch (a.op) {
    case MemOp::SharedLoad: return arch.load_group_lanes[static_cast<size_t>(width_index(a.width))];
    case MemOp::SharedStore: return arch.store_group_lanes[static_cast<size_t>(width_index(a.width))];
    case MemOp::LdMatrix: case MemOp::Gmma: return arch.ldmatrix_group_lanes;
    default: return a.width == 8 ? arch.atomic64_group_lanes : arch.atomic_group_lanes;
  }
}

int group_lanes_for(const Arch& arch, const WarpAccess& a) {
  if (a.op == MemOp::SharedLoad) {
    const auto w = static_cast<size_t>(width_index(a.width));
    if (arch.paired_load_group_lanes[w] != arch.load_group_lanes[w])
      for (int partner : arch.load_pair_partners)
        if (lanes_pair_up(a, partner)) return arch.paired_load_group_lanes[w];
  }
  return unpaired_group_lanes(arch, a);
}

// Words (4-byte units) per lane and the lanes that take part.
struct LaneWords {
  int words_per_lane;
  int lanes;
};

LaneWords lane_words(const WarpAccess& a) {
  if (is_matrix_rows(a.op)) return {4, 8 * a.width};  // 16-byte rows from lanes 0..8n-1
  return {std::max(1, a.width / 4), kWarpSize};
}

// Per-bank sets of distinct words for one lane group. Each bank can hold at most
// 32 distinct words per group (32 lanes; a lane's words sit in distinct banks).
class BankTable {
 public:
  void clear(int banks) {
    std::fill_n(count_.begin(), banks, 0);
    std::fill_n(lanes_.begin(), banks, 0);
  }
  void add(int bank, std::uint64_t word) {
    ++lanes_[bank];
    auto& words = words_[bank];
    int& n = count_[bank];
    for (int i = 0; i < n; ++i)
      if (words[i] == word) return;
    words[n++] = word;
  }
  int distinct(int bank) const { return count_[bank]; }
  int lanes(int bank) const { return lanes_[bank]; }

 private:
  std::array<std::array<std::uint64_t, kWarpSize>, 64> words_{};
  std::array<int, 64> count_{};
  std::array<int, 64> lanes_{};
};

// The load of one lane group (a BankSetLoad): wavefronts (its busiest bank's load),
// distinct words, the busiest bank and the lanes that touch it. Banks are 32 of 4 bytes
// (every NVIDIA GPU since Maxwell; arch.h keeps the numbers). Two ways to count: bit sets
// of rows per bank set (bank_sets.h, the common case) and per-bank lists
// (load_of_group_spread).
template <class F>
void for_each_lane(std::uint32_t mask, F&& f) {
  while (mask != 0) {
    f(__builtin_ctz(mask));
    mask &= mask - 1;
  }
}

// General path: per-bank lists of distinct words (value-returning atomics count lanes;
// rows spread over more than 64 rows; unaligned wide accesses).
// Not inlined: the common path stays small.
__attribute__((noinline)) BankSetLoad load_of_group_spread(const WarpAccess& a, std::uint32_t group_mask,
                                                           int words_per_lane, BankLoad bank_load) {
  thread_local BankTable table;  // scratch (16 KiB: not on the stack)
  std::array<std::uint32_t, 32> lanes_of_bank{};
  table.clear(32);
  for_each_lane(group_mask, [&](int lane) {
    const std::uint64_t word0 = a.address[lane] >> 2;
    for (int w = 0; w < words_per_lane; ++w) {
      const std::uint64_t word = word0 + static_cast<std::uint64_t>(w);
      lanes_of_bank[word & 31u] |= 1u << lane;
      table.add(static_cast<int>(word & 31u), word);
    }
  });
  BankSetLoad g{0, 0, 0, 0};
  for (size_t b = 0; b < 32; ++b) {
    const int distinct = table.distinct(static_cast<int>(b));
    const int load = bank_load == BankLoad::Lanes ? __builtin_popcount(lanes_of_bank[b]) : distinct;
    g.distinct_words += distinct;
    if (load > g.wavefronts) {
      g.wavefronts = load;
      g.worst_bank = static_cast<int>(b);
    }
  }
  // As bank_sets.h: distinct words name the lanes only for a conflict, lanes always.
  if (bank_load == BankLoad::Lanes || g.wavefronts > 1) g.worst_lanes = lanes_of_bank[static_cast<size_t>(g.worst_bank)];
  return g;
}

// Adds one group's load to `cost`.
void add_group(const BankSetLoad& g, int wavefront_words_log2, SharedCost& cost) {
  ++cost.groups;
  cost.wavefronts += g.wavefronts;
  cost.ideal_wavefronts += (g.distinct_words + (1 << wavefront_words_log2) - 1) >> wavefront_words_log2;
  if (g.wavefronts > cost.worst_degree) {
    cost.worst_degree = g.wavefronts;
    cost.worst_bank = g.worst_bank;
    cost.worst_group = cost.groups - 1;
    cost.colliding_lanes = g.worst_lanes;
  }
}

// The groups of an access other than one group of the whole warp (not inlined: the common
// path stays small).
__attribute__((noinline)) void add_groups(const WarpAccess& a, int lanes, int group_lanes, int words_per_lane,
                                          BankLoad bank_load, int wavefront_words_log2, SharedCost& cost) {
  std::array<BankSetLoad, kWarpSize / 8> loads;
  std::uint32_t counted = 0;
  if (words_per_lane <= 4 && (lanes & (group_lanes - 1)) == 0)
    counted = count_bank_sets(a.address.data(), lanes, group_lanes, a.mask, words_per_lane, bank_load, loads.data());
  for (int first = 0, index = 0; first < lanes; first += group_lanes, ++index) {
    const int count = std::min(lanes, first + group_lanes) - first;
    const std::uint32_t span = count == 32 ? 0xffffffffu : ((1u << count) - 1u) << first;
    const std::uint32_t group_mask = a.mask & span;
    if (group_mask == 0) continue;
    BankSetLoad& g = loads[static_cast<size_t>(index)];
    if (((counted >> index) & 1u) == 0) g = load_of_group_spread(a, group_mask, words_per_lane, bank_load);
    add_group(g, wavefront_words_log2, cost);
  }
}

// True for an access of at most one word per lane (not ldmatrix) that the hardware serves as
// one group of the whole warp (every width up to 4 bytes on every NVIDIA GPU since Maxwell).
// (Pairing cannot make a group larger than the warp.)
bool narrow_whole_warp(const Arch& arch, const WarpAccess& a) {
  return a.width <= 4 && !is_matrix_rows(a.op) && unpaired_group_lanes(arch, a) == kWarpSize;
}

// Every access but the common one (not inlined into price_shared: its registers and frame
// would cost the common path).
__attribute__((noinline)) void price_other(const Arch& arch, const WarpAccess& a, int wavefront_words_log2,
                                           SharedCost& cost) {
  const BankLoad bank_load = a.op == MemOp::SharedAtomic ? BankLoad::Lanes : BankLoad::DistinctWords;
  const int group_lanes = group_lanes_for(arch, a);
  const auto [words_per_lane, lanes] = lane_words(a);
  if (a.mask != 0 && lanes == 32 && group_lanes == 32 && words_per_lane <= 4) {  // one group: wide loads that pair up
    if (!warp_counter(words_per_lane)(a.address.data(), a.mask, bank_load, wavefront_words_log2, cost))
      price_whole_warp(load_of_group_spread(a, a.mask, words_per_lane, bank_load), wavefront_words_log2, cost);
    return;
  }
  cost = SharedCost{};
  cost.group_lanes = group_lanes;
  if (a.mask != 0) add_groups(a, lanes, group_lanes, words_per_lane, bank_load, wavefront_words_log2, cost);
}

}  // namespace

void price_shared(const Arch& arch, const WarpAccess& a, SharedCost& cost) {
  // Words per wavefront, a power of two (32 on every NVIDIA GPU since Maxwell): its log2, so
  // the ideal is a shift, not a division on every access.
  const int wavefront_words_log2 = __builtin_ctz(static_cast<unsigned>(arch.wavefront_bytes)) -
                                   __builtin_ctz(static_cast<unsigned>(arch.bank_bytes));
  // The most common access first, in few instructions: the CPU starts the next access while
  // this one's long chains (the sort) finish only if both fit its window, so each
  // instruction here costs time (measured: ~0.14 ns each; docs/speed.md).
  if (a.mask != 0 && narrow_whole_warp(arch, a)) {
    static const WarpCounter count_one_word = warp_counter(1);
    const BankLoad bank_load = a.op == MemOp::SharedAtomic ? BankLoad::Lanes : BankLoad::DistinctWords;
    if (count_one_word(a.address.data(), a.mask, bank_load, wavefront_words_log2, cost)) return;
  }
  price_other(arch, a, wavefront_words_log2, cost);
}

}  // namespace warpscope::model
