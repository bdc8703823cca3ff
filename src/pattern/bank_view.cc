// bank_view.cc: per-lane rows and the bank diagram.
#include "pattern/bank_view.h"

#include <algorithm>

namespace warpscope::pattern {

namespace {

int words_per_lane(const model::Arch& arch, const model::WarpAccess& a) {
  if (model::is_matrix_rows(a.op)) return 16 / arch.bank_bytes;
  return std::max(1, a.width / arch.bank_bytes);
}
int lanes_taking_part(const model::WarpAccess& a) {
  return model::is_matrix_rows(a.op) ? 8 * a.width : model::kWarpSize;
}

// The diagram for lane groups of `per_group` consecutive lanes.
BankDiagram layout(const model::Arch& arch, const model::WarpAccess& a, int per_group) {
  BankDiagram d;
  const auto banks = static_cast<std::size_t>(arch.banks);
  d.bank_load.assign(banks, 0);
  const bool per_lane = a.op == model::MemOp::SharedAtomic;  // same-address lanes serialize
  const int words = words_per_lane(arch, a);
  const int taking_part = lanes_taking_part(a);
  struct Entry {
    std::uint64_t word;
    int lane;
    int sharers;
  };
  for (int first = 0; first < taking_part; first += per_group) {
    const int last = std::min(taking_part, first + per_group) - 1;
    std::vector<std::vector<Entry>> column(banks);  // per bank, in order of first lane
    bool any = false;
    for (int lane = first; lane <= last; ++lane) {
      if (!a.active(lane)) continue;
      any = true;
      const std::uint64_t word0 = a.address[static_cast<std::size_t>(lane)] / static_cast<std::uint64_t>(arch.bank_bytes);
      for (int w = 0; w < words; ++w) {
        const std::uint64_t word = word0 + static_cast<std::uint64_t>(w);
        auto& entries = column[static_cast<std::size_t>(word % banks)];
        auto same = std::find_if(entries.begin(), entries.end(), [&](const Entry& e) { return e.word == word; });
        if (same != entries.end() && !per_lane)
          ++same->sharers;
        else
          entries.push_back({word, lane, 1});
      }
    }
    if (!any) continue;
    std::size_t height = 0;
    for (const auto& entries : column) height = std::max(height, entries.size());
    d.groups.push_back({first, last, static_cast<int>(d.rows.size()), static_cast<int>(height)});
    for (std::size_t row = 0; row < height; ++row) {
      std::vector<DiagramCell> cells(banks);
      for (std::size_t b = 0; b < banks; ++b)
        if (row < column[b].size()) cells[b] = {column[b][row].lane, column[b][row].sharers};
      d.rows.push_back(std::move(cells));
    }
    for (std::size_t b = 0; b < banks; ++b) d.bank_load[b] += static_cast<int>(column[b].size());
  }
  return d;
}

}  // namespace

std::vector<LaneView> lane_views(const model::Arch& arch, const model::WarpAccess& a, const model::AccessCost& cost) {
  std::vector<LaneView> lanes;
  const bool shared = model::space_of(a.op) == model::Space::Shared;
  const int taking_part = lanes_taking_part(a);
  for (int lane = 0; lane < model::kWarpSize; ++lane) {
    LaneView v;
    v.lane = lane;
    v.active = a.active(lane) && lane < taking_part;
    v.address = a.address[static_cast<std::size_t>(lane)];
    if (v.active) {
      v.word = v.address / static_cast<std::uint64_t>(arch.bank_bytes);
      v.bank = static_cast<int>(v.word % static_cast<std::uint64_t>(arch.banks));
      v.banks = shared ? words_per_lane(arch, a) : 1;
      v.sector = v.address / static_cast<std::uint64_t>(arch.sector_bytes);
      v.line = v.address / static_cast<std::uint64_t>(arch.line_bytes);
      v.colliding = cost.shared && (cost.shared->colliding_lanes >> lane & 1u);
    }
    lanes.push_back(v);
  }
  return lanes;
}

BankDiagram bank_diagram(const model::Arch& arch, const model::WarpAccess& a, const model::AccessCost& cost) {
  if (!cost.shared) return {};
  // The model says how the hardware grouped the lanes (arch.h: lane groups, paired loads).
  return layout(arch, a, cost.shared->group_lanes);
}

}  // namespace warpscope::pattern
