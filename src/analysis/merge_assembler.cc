// merge_assembler.cc: collecting a warp's parts of ptxas's vector accesses.
#include "analysis/merge_assembler.h"

#include <algorithm>
#include <bit>

namespace warpscope::analysis {

namespace {

bool is_store(model::MemOp op) { return op == model::MemOp::SharedStore || op == model::MemOp::GlobalStore; }

// Bits [offset, offset + width) of a block's byte mask.
std::uint16_t byte_bits(std::uint64_t offset, int width) {
  const std::uint32_t ones = width >= 16 ? 0xffffu : ((1u << width) - 1u);
  return static_cast<std::uint16_t>(ones << offset);
}

template <class F>
void for_lanes(std::uint32_t mask, F&& f) {
  while (mask != 0) {
    f(std::countr_zero(mask));
    mask &= mask - 1;
  }
}

}  // namespace

void MergeAssembler::add(const emu::AccessEvent& e, const MergeRole& role) {
  const bool store = is_store(e.access.op);
  // A part wider than the group, or not a whole divisor of it, cannot be one of its parts.
  if (role.width > 16 || e.access.width >= role.width || role.width % e.access.width != 0) {
    sink_.run(e, e.access);
    return;
  }
  std::vector<Pending>& pending = by_warp_[key(e.block_index, e.warp)];
  if (role.dynamic) add_dynamic(pending, e, role, store);
  else add_static(pending, e, role, store);
}

void MergeAssembler::add_static(std::vector<Pending>& pending, const emu::AccessEvent& e, const MergeRole& role,
                                bool store) {
  const auto w = static_cast<std::uint64_t>(role.width);
  auto it = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) { return p.group == role.group; });
  // A part seen again starts a new round.
  if (it != pending.end() && (it->seen_parts >> role.part) & 1u) {
    finish(*it, false);
    pending.erase(it);
    it = pending.end();
  }
  if (it == pending.end()) {
    Pending p;
    p.group = role.group;
    p.width = role.width;
    p.store = store;
    p.parts = role.parts;
    pending.push_back(std::move(p));
    it = pending.end() - 1;
  }
  Pending& p = *it;
  bool consistent = true;
  for_lanes(e.access.mask, [&](int l) {
    const std::uint64_t block = e.access.address[static_cast<std::size_t>(l)] & ~(w - 1);
    if ((p.mask >> l) & 1u) {
      if (p.block[static_cast<std::size_t>(l)] != block) consistent = false;
    } else {
      p.block[static_cast<std::size_t>(l)] = block;
    }
    p.bytes[static_cast<std::size_t>(l)] |=
        byte_bits(e.access.address[static_cast<std::size_t>(l)] - block, e.access.width);
  });
  if (store && !p.events.empty() && p.mask != e.access.mask) consistent = false;
  if (!consistent) {  // not one instruction's parts after all: run what came as written
    run_parts(p);
    pending.erase(it);
    sink_.run(e, e.access);
    return;
  }
  p.mask |= e.access.mask;
  p.seen_parts |= 1u << role.part;
  if (role.anchor) p.anchor = static_cast<int>(p.events.size());
  p.events.push_back(e);
  if (std::popcount(p.seen_parts) == p.parts) {
    finish(p, true);
    pending.erase(it);
  }
}

void MergeAssembler::add_dynamic(std::vector<Pending>& pending, const emu::AccessEvent& e, const MergeRole& role,
                                 bool store) {
  const auto w = static_cast<std::uint64_t>(role.width);
  const int first = std::countr_zero(e.access.mask);
  const std::uint64_t first_block = e.access.address[static_cast<std::size_t>(first)] & ~(w - 1);
  auto it = std::find_if(pending.begin(), pending.end(), [&](const Pending& p) {
    return p.group == role.group && p.mask == e.access.mask && p.block[static_cast<std::size_t>(first)] == first_block;
  });
  if (it == pending.end()) {
    Pending p;
    p.group = role.group;
    p.width = role.width;
    p.dynamic = true;
    p.store = store;
    p.mask = e.access.mask;
    for_lanes(e.access.mask, [&](int l) {
      p.block[static_cast<std::size_t>(l)] = e.access.address[static_cast<std::size_t>(l)] & ~(w - 1);
    });
    pending.push_back(std::move(p));
    it = pending.end() - 1;
  }
  Pending& p = *it;
  bool fits = true;
  for_lanes(e.access.mask, [&](int l) {
    const std::uint64_t a = e.access.address[static_cast<std::size_t>(l)];
    const std::uint64_t block = a & ~(w - 1);
    if (block != p.block[static_cast<std::size_t>(l)] ||
        (p.bytes[static_cast<std::size_t>(l)] & byte_bits(a - block, e.access.width)) != 0)
      fits = false;
  });
  if (!fits) {  // other blocks, or bytes already read: this block's round is over
    finish(p, false);
    pending.erase(it);
    add_dynamic(pending, e, role, store);
    return;
  }
  for_lanes(e.access.mask, [&](int l) {
    const std::uint64_t a = e.access.address[static_cast<std::size_t>(l)];
    p.bytes[static_cast<std::size_t>(l)] |= byte_bits(a - p.block[static_cast<std::size_t>(l)], e.access.width);
  });
  p.events.push_back(e);
  const std::uint16_t full = byte_bits(0, role.width);
  bool complete = true;
  for_lanes(p.mask, [&](int l) { complete = complete && p.bytes[static_cast<std::size_t>(l)] == full; });
  if (complete) {
    finish(p, true);
    pending.erase(it);
  }
}

void MergeAssembler::finish(Pending& p, bool complete) {
  if (p.events.empty()) return;
  // A static load runs whole once its round is over (parts that did not run were hoisted
  // into it); a store, or a dynamic block, only when every part came.
  if (!complete && (p.dynamic || p.store)) {
    run_parts(p);
    return;
  }
  const emu::AccessEvent& at = p.events[static_cast<std::size_t>(p.anchor >= 0 ? p.anchor : 0)];
  model::WarpAccess wide = at.access;
  wide.width = p.width;
  wide.mask = p.mask;
  for_lanes(p.mask, [&](int l) { wide.address[static_cast<std::size_t>(l)] = p.block[static_cast<std::size_t>(l)]; });
  ++merged_;
  sink_.run(at, wide);
}

void MergeAssembler::run_parts(Pending& p) {
  for (const emu::AccessEvent& e : p.events) sink_.run(e, e.access);
  p.events.clear();
}

void MergeAssembler::end_round(std::uint64_t block_index, int warp) {
  auto it = by_warp_.find(key(block_index, warp));
  if (it == by_warp_.end()) return;
  for (Pending& p : it->second) finish(p, false);
  it->second.clear();
}

void MergeAssembler::end_block(std::uint64_t block_index) {
  for (auto it = by_warp_.begin(); it != by_warp_.end();) {
    if (it->first >> 8 != block_index) {
      ++it;
      continue;
    }
    for (Pending& p : it->second) finish(p, false);
    it = by_warp_.erase(it);
  }
}

}  // namespace warpscope::analysis
