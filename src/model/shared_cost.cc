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

}  // namespace

SharedCost price_shared(const Arch& arch, const WarpAccess& a) {
  SharedCost cost;
  const Merge merge = a.op == MemOp::SharedAtomic ? Merge::Lanes : Merge::DistinctWords;
  const int group_lanes = group_lanes_for(arch, a);
  const auto [words_per_lane, lanes] = lane_words(a);
  const int banks = arch.banks;
  const auto bank_bytes = static_cast<std::uint64_t>(arch.bank_bytes);
  const int words_per_wavefront = arch.wavefront_bytes / arch.bank_bytes;
  thread_local BankTable table;

  for (int first = 0; first < lanes; first += group_lanes) {
    const int last = std::min(lanes, first + group_lanes);
    std::uint32_t group_mask = 0;
    for (int lane = first; lane < last; ++lane)
      if (a.active(lane)) group_mask |= 1u << lane;
    if (group_mask == 0) continue;
    table.clear(banks);
    for (int lane = first; lane < last; ++lane) {
      if (!(group_mask >> lane & 1u)) continue;
      const std::uint64_t word0 = a.address[lane] / bank_bytes;
      for (int w = 0; w < words_per_lane; ++w) {
        const std::uint64_t word = word0 + static_cast<std::uint64_t>(w);
        table.add(static_cast<int>(word % static_cast<std::uint64_t>(banks)), word);
      }
    }
    int group_wavefronts = 0, distinct_words = 0, worst_bank = 0;
    for (int b = 0; b < banks; ++b) {
      const int load = merge == Merge::Lanes ? table.lanes(b) : table.distinct(b);
      distinct_words += table.distinct(b);
      if (load > group_wavefronts) {
        group_wavefronts = load;
        worst_bank = b;
      }
    }
    ++cost.groups;
    cost.wavefronts += group_wavefronts;
    cost.ideal_wavefronts += (distinct_words + words_per_wavefront - 1) / words_per_wavefront;
    if (group_wavefronts > cost.worst_degree) {
      cost.worst_degree = group_wavefronts;
      cost.worst_bank = worst_bank;
      cost.worst_group = cost.groups - 1;
      cost.colliding_lanes = 0;
      for (int lane = first; lane < last; ++lane) {
        if (!(group_mask >> lane & 1u)) continue;
        const std::uint64_t word0 = a.address[lane] / bank_bytes;
        for (int w = 0; w < words_per_lane; ++w)
          if ((word0 + static_cast<std::uint64_t>(w)) % static_cast<std::uint64_t>(banks) ==
              static_cast<std::uint64_t>(worst_bank))
            cost.colliding_lanes |= 1u << lane;
      }
    }
  }
  return cost;
}

}  // namespace warpscope::model
