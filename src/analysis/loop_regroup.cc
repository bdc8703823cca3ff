// loop_regroup.cc: a warp's accesses of an unrolled loop, run by the SASS's regions.
#include "analysis/loop_regroup.h"

#include <algorithm>
#include <optional>

namespace warpscope::analysis {

std::vector<int> region_trips(const UnrolledLoop& loop, int p) {
  std::vector<int> trips;
  trips.reserve(loop.regions.size());
  int rest = p;
  for (const UnrollRegion& r : loop.regions) {
    const int t = r.loop ? rest / r.copies : (rest >= r.copies ? 1 : 0);
    trips.push_back(t);
    rest -= t * r.copies;
  }
  return trips;
}

void LoopRegroup::add(const emu::AccessEvent& e, int loop, const UnrolledLoop& regions) {
  const std::uint64_t k = key(e.block_index, e.warp);
  auto it = held_.find(k);
  if (it != held_.end() && it->second.loop != loop) {
    flush(k);
    it = held_.end();
  }
  if (it != held_.end()) {
    // A lane that left the loop and runs this access again started it again.
    const Held& h = it->second;
    auto m = std::find_if(h.members.begin(), h.members.end(), [&](const Member& x) { return x.pc == e.pc; });
    if (m != h.members.end())
      for (int l = 0; l < 32; ++l)
        if (e.access.active(l) && m->state[static_cast<std::size_t>(l)] == 2) {
          flush(k);
          it = held_.end();
          break;
        }
  }
  if (it == held_.end()) it = held_.emplace(k, Held{loop, &regions, {}, {}, false}).first;
  Held& h = it->second;
  if (h.passthrough) {
    sink_.run(e, e.access);
    return;
  }
  auto m = std::find_if(h.members.begin(), h.members.end(), [&](const Member& x) { return x.pc == e.pc; });
  if (m == h.members.end()) {
    Member fresh;
    fresh.pc = e.pc;
    fresh.first = e;
    m = h.members.insert(std::upper_bound(h.members.begin(), h.members.end(), e.pc,
                                          [](std::uint32_t pc, const Member& x) { return pc < x.pc; }),
                         std::move(fresh));
  }
  for (int l = 0; l < 32; ++l) {
    auto& state = m->state[static_cast<std::size_t>(l)];
    if (e.access.active(l)) {
      m->addresses[static_cast<std::size_t>(l)].push_back(e.access.address[static_cast<std::size_t>(l)]);
      state = 1;
    } else if (state == 1) {
      state = 2;
    }
  }
  h.order.emplace_back(e.pc, e.access.mask);
  if (h.order.size() >= kMaxHeld) {
    run_as_came(h);
    h.members.clear();
    h.order.clear();
    h.passthrough = true;
  }
}

void LoopRegroup::end_block(std::uint64_t block_index) {
  std::vector<std::uint64_t> keys;
  for (const auto& [k, h] : held_)
    if (k >> 8 == block_index) keys.push_back(k);
  std::sort(keys.begin(), keys.end());  // warp order: the same figures from any worker
  for (std::uint64_t k : keys) flush(k);
}

void LoopRegroup::flush(std::uint64_t k) {
  auto it = held_.find(k);
  if (it == held_.end()) return;
  Held h = std::move(it->second);
  held_.erase(it);
  run(h);
}

void LoopRegroup::run_as_came(Held& h) {
  std::vector<std::array<std::size_t, 32>> next(h.members.size(), std::array<std::size_t, 32>{});
  for (const auto& came : h.order) {
    const std::uint32_t pc = came.first, mask = came.second;
    const auto m = static_cast<std::size_t>(
        std::find_if(h.members.begin(), h.members.end(), [pc](const Member& x) { return x.pc == pc; }) - h.members.begin());
    emu::AccessEvent e = h.members[m].first;
    e.access.mask = mask;
    for (std::size_t l = 0; l < 32; ++l)
      if ((mask >> l) & 1u) e.access.address[l] = h.members[m].addresses[l][next[m][l]++];
    sink_.run(e, e.access);
  }
}

// Where a shaped trip's SASS accesses start, from the lowest of its PTX accesses: the offset d
// (bytes, at most 0) that makes every PTX access lie inside one of them, every one of them hold
// one, and each aligned to its width; nullopt when none does.
std::optional<std::int64_t> place_shape(const std::vector<std::pair<std::int64_t, int>>& shape,
                                        const std::vector<std::pair<std::uint64_t, int>>& elements) {
  if (elements.empty()) return std::nullopt;
  std::uint64_t lo = elements.front().first;
  for (const auto& e : elements) lo = std::min(lo, e.first);
  auto fits = [&](std::int64_t d) {
    std::vector<bool> used(shape.size(), false);
    for (const auto& e : elements) {
      const std::int64_t a = static_cast<std::int64_t>(e.first - lo);
      bool inside = false;
      for (std::size_t s = 0; s < shape.size() && !inside; ++s) {
        const std::int64_t start = d + shape[s].first;
        if (a >= start && a + e.second <= start + shape[s].second) inside = used[s] = true;
      }
      if (!inside) return false;
    }
    for (std::size_t s = 0; s < shape.size(); ++s)
      if (!used[s] || (static_cast<std::int64_t>(lo) + d + shape[s].first) % shape[s].second != 0) return false;
    return true;
  };
  for (std::int64_t d = 0; d > -shape.back().first - shape.back().second; d -= 4)
    if (fits(d)) return d;
  return std::nullopt;
}

bool LoopRegroup::run_shaped(const Held& h, const UnrollRegion& region, const std::array<std::vector<int>, 32>& trips,
                             const std::array<int, 32>& base, int r, int j) {
  const int c = region.copies;
  std::uint32_t mask = 0;
  std::array<std::uint64_t, 32> start{};
  std::vector<std::pair<std::uint64_t, int>> elements;
  for (std::size_t l = 0; l < 32; ++l) {
    if (trips[l][static_cast<std::size_t>(r)] <= j) continue;
    elements.clear();
    for (int copy = 0; copy < c; ++copy)
      for (const Member& m : h.members)
        elements.emplace_back(m.addresses[l][static_cast<std::size_t>(base[l] + j * c + copy)], m.first.access.width);
    std::uint64_t lo = elements.front().first;
    for (const auto& e : elements) lo = std::min(lo, e.first);
    const std::optional<std::int64_t> d = place_shape(region.shape, elements);
    if (!d) return false;  // not this shape: the PTX's accesses, as they are
    mask |= 1u << l;
    start[l] = static_cast<std::uint64_t>(static_cast<std::int64_t>(lo) + *d);
  }
  if (mask == 0) return true;
  for (const auto& [offset, width] : region.shape) {
    emu::AccessEvent e = h.members.front().first;
    e.access.width = width;
    e.access.mask = mask;
    for (std::size_t l = 0; l < 32; ++l)
      if ((mask >> l) & 1u) e.access.address[l] = start[l] + static_cast<std::uint64_t>(offset);
    sink_.run(e, e.access);
  }
  return true;
}

void LoopRegroup::run(Held& h) {
  // Every access of the loop must have run equally often for each lane (each is one per
  // iteration); otherwise the iterations are not known: run what came, as it came.
  bool counted = !h.members.empty();
  for (std::size_t l = 0; l < 32 && counted; ++l)
    for (const Member& m : h.members) counted = counted && m.addresses[l].size() == h.members[0].addresses[l].size();
  if (!counted) {
    run_as_came(h);
    return;
  }
  const std::vector<UnrollRegion>& regions = h.regions->regions;
  std::array<std::vector<int>, 32> trips;
  std::vector<int> most(regions.size(), 0);
  for (std::size_t l = 0; l < 32; ++l) {
    trips[l] = region_trips(*h.regions, static_cast<int>(h.members[0].addresses[l].size()));
    for (std::size_t r = 0; r < regions.size(); ++r) most[r] = std::max(most[r], trips[l][r]);
  }
  std::array<int, 32> base{};  // per lane: the iterations of the regions before
  for (std::size_t r = 0; r < regions.size(); ++r) {
    const int c = regions[r].copies;
    for (int j = 0; j < most[r]; ++j) {
      if (!regions[r].shape.empty() && run_shaped(h, regions[r], trips, base, static_cast<int>(r), j)) continue;
      for (int copy = 0; copy < c; ++copy) {
        std::uint32_t mask = 0;
        for (std::size_t l = 0; l < 32; ++l)
          if (trips[l][r] > j) mask |= 1u << l;
        for (const Member& m : h.members) {
          emu::AccessEvent e = m.first;
          e.access.mask = mask;
          for (std::size_t l = 0; l < 32; ++l)
            if ((mask >> l) & 1u)
              e.access.address[l] = m.addresses[l][static_cast<std::size_t>(base[l] + j * c + copy)];
          sink_.run(e, e.access);
        }
      }
    }
    for (std::size_t l = 0; l < 32; ++l) base[l] += trips[l][r] * c;
  }
  ++regrouped_;
}

}  // namespace warpscope::analysis
