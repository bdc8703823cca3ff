// load_reuse.cc: what a warp holds in registers of an unrolled loop's loads.
#include "analysis/load_reuse.h"

#include <algorithm>
#include <bit>

namespace warpscope::analysis {

namespace {

std::uint64_t mix(std::uint64_t h, std::uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  return h * 0xff51afd7ed558ccdull;
}

std::uint64_t hash_of(const model::WarpAccess& a) {
  std::uint64_t h = mix(a.mask, static_cast<std::uint64_t>(a.width));
  for (std::uint32_t m = a.mask; m != 0; m &= m - 1) h = mix(h, a.address[static_cast<std::size_t>(std::countr_zero(m))]);
  return h;
}

bool is_shared(model::MemOp op) { return model::space_of(op) == model::Space::Shared; }

}  // namespace

bool LoadReuse::reused(const emu::AccessEvent& e, int group, int slots, bool subset) {
  std::vector<Held>& held = by_warp_[key(e.block_index, e.warp)];
  if (subset) {
    const model::WarpAccess& a = e.access;
    for (const Held& x : held) {
      if (x.group != group || x.width != a.width || (a.mask & ~x.mask) != 0) continue;
      bool same = true;
      for (std::uint32_t m = a.mask; m != 0 && same; m &= m - 1) {
        const auto l = static_cast<std::size_t>(std::countr_zero(m));
        same = x.addresses[l] == a.address[l];
      }
      if (same) return true;
    }
    held.erase(std::remove_if(held.begin(), held.end(), [&](const Held& x) { return x.group == group; }), held.end());
    Held h{group, is_shared(a.op), 0, a.mask, a.width, std::vector<std::uint64_t>(32, 0)};
    for (std::uint32_t m = a.mask; m != 0; m &= m - 1) {
      const auto l = static_cast<std::size_t>(std::countr_zero(m));
      h.addresses[l] = a.address[l];
    }
    held.push_back(std::move(h));
    return false;
  }
  const std::uint64_t h = hash_of(e.access);
  const bool shared = is_shared(e.access.op);
  int mine = 0;
  for (const Held& x : held) {
    if (x.group != group) continue;
    if (x.hash == h) return true;
    ++mine;
  }
  if (mine >= slots)  // ptxas unrolled only so far: the next stretch loads again
    held.erase(std::remove_if(held.begin(), held.end(), [&](const Held& x) { return x.group == group; }), held.end());
  held.push_back({group, shared, h, 0, 0, {}});
  return false;
}

void LoadReuse::store(const emu::AccessEvent& e) {
  auto it = by_warp_.find(key(e.block_index, e.warp));
  if (it == by_warp_.end()) return;
  const bool shared = is_shared(e.access.op);
  auto& held = it->second;
  held.erase(std::remove_if(held.begin(), held.end(), [&](const Held& x) { return x.shared == shared; }), held.end());
}

void LoadReuse::end_round(std::uint64_t block_index, int warp) { by_warp_.erase(key(block_index, warp)); }

void LoadReuse::end_block(std::uint64_t block_index) {
  for (auto it = by_warp_.begin(); it != by_warp_.end();)
    it = (it->first >> 8) == block_index ? by_warp_.erase(it) : std::next(it);
}

}  // namespace warpscope::analysis
