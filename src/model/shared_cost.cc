// shared_cost.cc: the lane-group / distinct-words-per-bank rule of arch.h.
#include "model/shared_cost.h"

#include <algorithm>
#include <array>

namespace warpscope::model {

namespace {

enum class Merge { DistinctWords, Lanes };

// True if every active lane whose partner (lane xor `partner`) is active reads the same
// address as that partner.
bool lanes_pair_up(const WarpAccess& a, int partner) {
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const int other = lane ^ partner;
    if (a.active(lane) && a.active(other) && a.address[lane] != a.address[other]) return false;
  }
  return true;
}

int group_lanes_for(const Arch& arch, const WarpAccess& a) {
  switch (a.op) {
    case MemOp::SharedLoad: {
      const auto w = static_cast<size_t>(width_index(a.width));
      if (arch.paired_load_group_lanes[w] != arch.load_group_lanes[w])
        for (int partner : arch.load_pair_partners)
          if (lanes_pair_up(a, partner)) return arch.paired_load_group_lanes[w];
      return arch.load_group_lanes[w];
    }
    case MemOp::SharedStore: return arch.store_group_lanes[static_cast<size_t>(width_index(a.width))];
    case MemOp::LdMatrix: return arch.ldmatrix_group_lanes;
    default: return arch.atomic_group_lanes;
  }
}

// Words (4-byte units) per lane and the lanes that take part.
struct LaneWords {
  int words_per_lane;
  int lanes;
};

LaneWords lane_words(const WarpAccess& a) {
  if (a.op == MemOp::LdMatrix) return {4, 8 * a.width};  // 16-byte rows from lanes 0..8n-1
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

// The load of one lane group: wavefronts (its busiest bank's load), distinct words, the
// busiest bank and the lanes that touch it. Banks are 32 of 4 bytes (every NVIDIA GPU since
// Maxwell; arch.h keeps the numbers). Fast path: when every word's row (word / 32) lies
// within 64 rows of the group's lowest, a bank's rows are bits of one 64-bit mask and its
// distinct-word count is a popcount; otherwise per-bank lists.
struct GroupLoad {
  int wavefronts = 0;
  int distinct_words = 0;
  int worst_bank = 0;
  std::uint32_t worst_lanes = 0;
};

template <class F>
void for_each_lane(std::uint32_t mask, F&& f) {
  while (mask != 0) {
    f(__builtin_ctz(mask));
    mask &= mask - 1;
  }
}

// Slow path: rows spread over more than 64 rows; per-bank lists of distinct words.
GroupLoad load_of_group_spread(const WarpAccess& a, std::uint32_t group_mask, int words_per_lane, Merge merge,
                               BankTable& table) {
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
  GroupLoad g;
  for (size_t b = 0; b < 32; ++b) {
    const int distinct = table.distinct(static_cast<int>(b));
    const int load = merge == Merge::Lanes ? __builtin_popcount(lanes_of_bank[b]) : distinct;
    g.distinct_words += distinct;
    if (load > g.wavefronts) {
      g.wavefronts = load;
      g.worst_bank = static_cast<int>(b);
    }
  }
  g.worst_lanes = lanes_of_bank[static_cast<size_t>(g.worst_bank)];
  return g;
}

// Fast path: every word's row (word / 32) lies within 64 * kRowWords rows of the group's
// lowest row, so each bank's rows fit a kRowWords-word bit set.
template <int kWordsPerLane, int kRowWords>
void load_of_group_near(const WarpAccess& a, std::uint32_t group_mask, std::uint64_t base, GroupLoad& g) {
  std::array<std::array<std::uint64_t, kRowWords>, 32> rows;
  std::uint32_t touched = 0;  // banks seen; only their rows are cleared and counted
  for (std::uint32_t m = group_mask; m != 0; m &= m - 1) {
    const std::uint64_t word0 = a.address[__builtin_ctz(m)] >> 2;
    for (int w = 0; w < kWordsPerLane; ++w) {
      const std::uint64_t word = word0 + static_cast<std::uint64_t>(w);
      const std::uint64_t row = (word >> 5) - base;
      const auto bank = static_cast<unsigned>(word & 31u);
      if (!((touched >> bank) & 1u)) {
        touched |= 1u << bank;
        rows[bank] = {};
      }
      rows[bank][row >> 6] |= 1ull << (row & 63u);
    }
  }
  for (std::uint32_t t = touched; t != 0; t &= t - 1) {
    const int b = __builtin_ctz(t);
    int distinct = 0;
    for (std::uint64_t bits : rows[static_cast<size_t>(b)]) distinct += __builtin_popcountll(bits);
    g.distinct_words += distinct;
    if (distinct > g.wavefronts) {
      g.wavefronts = distinct;
      g.worst_bank = b;
    }
  }
  if (g.wavefronts > 1)  // only a conflict has colliding lanes worth naming
    for (std::uint32_t m = group_mask; m != 0; m &= m - 1) {
      const int lane = __builtin_ctz(m);
      const std::uint64_t word0 = a.address[lane] >> 2;
      for (int w = 0; w < kWordsPerLane; ++w)
        if (((word0 + static_cast<std::uint64_t>(w)) & 31u) == static_cast<std::uint64_t>(g.worst_bank))
          g.worst_lanes |= 1u << lane;
    }
}

template <int kWordsPerLane>
bool load_of_group_fast(const WarpAccess& a, std::uint32_t group_mask, GroupLoad& g) {
  std::uint64_t lo = ~0ull, hi = 0;
  for (std::uint32_t m = group_mask; m != 0; m &= m - 1) {
    const std::uint64_t addr = a.address[__builtin_ctz(m)];
    lo = std::min(lo, addr);
    hi = std::max(hi, addr);
  }
  const std::uint64_t base = lo >> 7;  // rows of 32 words = 128 bytes
  const std::uint64_t span = ((hi >> 2) + static_cast<std::uint64_t>(kWordsPerLane - 1)) / 32 - base;
  if (span < 64) load_of_group_near<kWordsPerLane, 1>(a, group_mask, base, g);
  else if (span < 512) load_of_group_near<kWordsPerLane, 8>(a, group_mask, base, g);
  else return false;
  return true;
}

// Fastest path: no two lanes touch one bank (each lane's words sit in consecutive banks),
// or every lane reads the same address. Then one wavefront serves the group.
bool load_of_group_trivial(const WarpAccess& a, std::uint32_t group_mask, int words_per_lane, GroupLoad& g) {
  const std::uint32_t lane_banks = words_per_lane >= 32 ? 0xffffffffu : (1u << words_per_lane) - 1u;
  const std::uint64_t first = a.address[__builtin_ctz(group_mask)];
  std::uint32_t used = 0, overlap = 0;
  bool same = true;
  for (std::uint32_t m = group_mask; m != 0; m &= m - 1) {
    const std::uint64_t address = a.address[__builtin_ctz(m)];
    const auto shift = static_cast<unsigned>((address >> 2) & 31u);
    const std::uint32_t banks = (lane_banks << shift) | (shift == 0 ? 0u : lane_banks >> (32u - shift));
    overlap |= used & banks;
    used |= banks;
    same &= address == first;
  }
  if (overlap != 0 && !same) return false;
  g.wavefronts = 1;
  g.distinct_words = same ? words_per_lane : __builtin_popcount(used);
  g.worst_bank = static_cast<int>((first >> 2) & 31u);
  return true;
}

GroupLoad load_of_group(const WarpAccess& a, std::uint32_t group_mask, int words_per_lane, Merge merge,
                        BankTable& table) {
  GroupLoad g;
  if (merge == Merge::DistinctWords && load_of_group_trivial(a, group_mask, words_per_lane, g)) return g;
  if (merge == Merge::DistinctWords) {
    bool near = false;
    switch (words_per_lane) {
      case 1: near = load_of_group_fast<1>(a, group_mask, g); break;
      case 2: near = load_of_group_fast<2>(a, group_mask, g); break;
      case 4: near = load_of_group_fast<4>(a, group_mask, g); break;
      default: break;
    }
    if (near) return g;
  }
  return load_of_group_spread(a, group_mask, words_per_lane, merge, table);
}

}  // namespace

SharedCost price_shared(const Arch& arch, const WarpAccess& a) {
  SharedCost cost;
  const Merge merge = a.op == MemOp::SharedAtomic ? Merge::Lanes : Merge::DistinctWords;
  const int group_lanes = group_lanes_for(arch, a);
  cost.group_lanes = group_lanes;
  const auto [words_per_lane, lanes] = lane_words(a);
  const int words_per_wavefront = arch.wavefront_bytes / arch.bank_bytes;
  thread_local BankTable table;

  for (int first = 0; first < lanes; first += group_lanes) {
    const int count = std::min(lanes, first + group_lanes) - first;
    const std::uint32_t span = count == 32 ? 0xffffffffu : ((1u << count) - 1u) << first;
    const std::uint32_t group_mask = a.mask & span;
    if (group_mask == 0) continue;
    const GroupLoad g = load_of_group(a, group_mask, words_per_lane, merge, table);
    ++cost.groups;
    cost.wavefronts += g.wavefronts;
    cost.ideal_wavefronts += (g.distinct_words + words_per_wavefront - 1) / words_per_wavefront;
    if (g.wavefronts > cost.worst_degree) {
      cost.worst_degree = g.wavefronts;
      cost.worst_bank = g.worst_bank;
      cost.worst_group = cost.groups - 1;
      cost.colliding_lanes = g.worst_lanes;
    }
  }
  return cost;
}

}  // namespace warpscope::model
