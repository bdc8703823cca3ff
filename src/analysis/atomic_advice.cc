// atomic_advice.cc: hot-bin atomics, their rewrites, and the proof run (see atomic_advice.h).
#include "analysis/atomic_advice.h"

#include <algorithm>

#include "model/access_cost.h"

namespace warpscope::analysis {

namespace {

bool is_atomic(model::MemOp op) {
  return op == model::MemOp::SharedAtomic || op == model::MemOp::SharedAtomicAggregated;
}

bool inside(const AtomicRewrite& r, const model::WarpAccess& a) {
  for (int l = 0; l < model::kWarpSize; ++l)
    if (a.active(l)) {
      const std::uint64_t x = a.address[static_cast<std::size_t>(l)];
      return x >= r.base && x - r.base < r.size;
    }
  return false;
}

std::uint64_t price(const model::Arch& arch, const std::vector<model::WarpAccess>& accesses) {
  std::uint64_t total = 0;
  for (const model::WarpAccess& a : accesses) {
    if (a.mask == 0 || !model::validate(a).ok()) continue;
    const model::AccessCost c = model::price_valid(arch, a);
    if (c.shared) total += static_cast<std::uint64_t>(c.shared->wavefronts);
  }
  return total;
}

std::uint64_t price_all(const model::Arch& arch, const AtomicAdviceInputs& in, const AtomicRewrite* rewrite,
                        bool atomics_only = false) {
  std::uint64_t total = 0;
  for (const RecordedAccess& r : in.accesses) {
    if (atomics_only && !is_atomic(r.access.op)) continue;
    const auto moved = rewrite != nullptr ? rewrite_atomic_access(*rewrite, r.access) : std::vector{r.access};
    total += r.count * price(arch, moved);
  }
  return total;
}

std::string num(std::uint64_t v) { return std::to_string(v); }

}  // namespace

std::vector<model::WarpAccess> rewrite_atomic_access(const AtomicRewrite& r, const model::WarpAccess& access, int warp) {
  if (!inside(r, access)) return {access};
  const bool atomic = is_atomic(access.op);
  switch (r.kind) {
    case AtomicRewrite::Kind::Aggregate: {
      if (!atomic) return {access};
      model::WarpAccess a = access;  // one lane per distinct address: the group's leader
      for (int l = 0; l < model::kWarpSize; ++l)
        if (a.active(l))
          for (int m = 0; m < l; ++m)
            if (a.active(m) && a.address[static_cast<std::size_t>(m)] == a.address[static_cast<std::size_t>(l)]) {
              a.mask &= ~(1u << l);
              break;
            }
      return {a};
    }
    case AtomicRewrite::Kind::PerWarp: {
      std::vector<model::WarpAccess> out;
      const int first = atomic ? std::max(warp, 0) : 0, last = atomic ? first : r.copies - 1;
      for (int k = first; k <= last; ++k) {
        model::WarpAccess a = access;
        for (int l = 0; l < model::kWarpSize; ++l)
          if (a.active(l)) a.address[static_cast<std::size_t>(l)] += static_cast<std::uint64_t>(k) * r.pitch;
        out.push_back(a);
      }
      return out;
    }
    case AtomicRewrite::Kind::PerLane: {
      std::vector<model::WarpAccess> out;
      // Lane l's copy of element e is h[e][l]; zeroing and summing walk the 32 copies rotated.
      for (int k = 0; k < (atomic ? 1 : model::kWarpSize); ++k) {
        model::WarpAccess a = access;
        for (int l = 0; l < model::kWarpSize; ++l) {
          if (!a.active(l)) continue;
          std::uint64_t& x = a.address[static_cast<std::size_t>(l)];
          const std::uint64_t o = x - r.base, copy = atomic ? static_cast<std::uint64_t>(l)
                                                            : static_cast<std::uint64_t>((k + l) % model::kWarpSize);
          x = r.base + (o / r.elem * model::kWarpSize + copy) * r.elem + o % r.elem;
        }
        out.push_back(a);
      }
      return out;
    }
  }
  return {access};
}

std::optional<AtomicAdvice> advise_atomics(const model::Arch& arch, const AtomicAdviceInputs& in) {
  bool value_returning = false, any = false;
  for (const RecordedAccess& r : in.accesses)
    if (is_atomic(r.access.op)) any = true, value_returning = value_returning || r.access.op == model::MemOp::SharedAtomic;
  if (!any) return std::nullopt;
  AtomicAdvice out;
  out.before = price_all(arch, in, nullptr);
  for (const RecordedAccess& r : in.accesses)
    if (r.access.mask != 0 && model::validate(r.access).ok()) {
      const model::AccessCost c = model::price_valid(arch, r.access);
      if (c.shared) out.ideal += r.count * static_cast<std::uint64_t>(c.shared->ideal_wavefronts);
    }
  const AtomicRewrite aggregate{AtomicRewrite::Kind::Aggregate, in.region.base, in.region.size, in.elem_bytes, 1, 0};
  out.same_address = price_all(arch, in, nullptr, true) - std::min(price_all(arch, in, nullptr, true),
                                                                  price_all(arch, in, &aggregate, true));
  const std::uint64_t pitch = (in.region.size + 127) / 128 * 128;
  const int warps = std::max(1, in.warps_per_block);
  const std::string& h = in.name;
  const std::string bins = num(in.region.size / in.elem_bytes);
  std::vector<AtomicAlternative> alts;
  alts.push_back({"warp-aggregated atomics", 0, 0,
                  value_returning
                      ? "unsigned peers = __match_any_sync(__activemask(), i); int leader = __ffs(peers) - 1; " + in.type +
                            " old; if (lane == leader) old = atomicAdd(&" + h + "[i], __popc(peers)); old = "
                            "__shfl_sync(peers, old, leader) + __popc(peers & ((1u << lane) - 1));  // one atomic per "
                            "distinct " + h + "[i], each lane its own old value"
                      : "unsigned peers = __match_any_sync(__activemask(), i); if (lane == __ffs(peers) - 1) atomicAdd(&" +
                            h + "[i], __popc(peers));  // one atomic per distinct " + h + "[i]",
                  "", false, aggregate});
  alts.push_back({"privatization per lane", 0, in.region.size * (model::kWarpSize - 1),
                  "__shared__ " + in.type + " " + h + "[" + bins + "][32]; atomicAdd(&" + h + "[i][lane], 1);  // zero and "
                  "sum each element's 32 copies as " + h + "[e][(k + lane) % 32] at step k",
                  "", false,
                  AtomicRewrite{AtomicRewrite::Kind::PerLane, in.region.base, in.region.size, in.elem_bytes,
                                model::kWarpSize, 0}});
  alts.push_back({"per-warp sub-histograms", 0, pitch * static_cast<std::uint64_t>(warps) - in.region.size,
                  "__shared__ " + in.type + " " + h + "[" + num(warps) + "][" + num(pitch / in.elem_bytes) +
                      "]; atomicAdd(&" + h + "[threadIdx.x / 32][i], 1);  // then sum the " + num(warps) +
                      " copies of each element",
                  "", false,
                  AtomicRewrite{AtomicRewrite::Kind::PerWarp, in.region.base, in.region.size, in.elem_bytes, warps, pitch}});
  const std::uint64_t gain =
      std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(out.before) * std::max(0.0, in.min_gain) + 0.999999));
  for (AtomicAlternative& a : alts) {
    a.wavefronts = price_all(arch, in, &a.rewrite);
    if (a.extra_bytes > in.max_extra_bytes)
      a.note = "needs " + num(a.extra_bytes) + " more bytes of shared memory than the block has left";
    else if (a.wavefronts >= out.before)
      a.note = a.rewrite.kind == AtomicRewrite::Kind::PerWarp
                   ? "no fewer wavefronts: copies spread warps over memory, not the lanes of one warp (it can still "
                     "shorten the time warps wait on each other, which wavefronts do not show)"
               : a.rewrite.kind == AtomicRewrite::Kind::PerLane
                   ? "no fewer wavefronts here: zeroing and summing 32 copies costs more than the conflicts it removes"
               : value_returning ? "no fewer wavefronts here: no two lanes of a warp update one address"
                                 : "no fewer wavefronts: ptxas already aggregates an atomicAdd whose result is unused "
                                   "(ATOMS.POPC.INC)";
    else if (out.before - a.wavefronts < gain)
      a.note = "saves less than the --min-gain";
    else
      a.offered = true;
  }
  std::stable_sort(alts.begin(), alts.end(), [](const AtomicAlternative& a, const AtomicAlternative& b) {
    return std::make_tuple(!a.offered, a.wavefronts, a.extra_bytes) < std::make_tuple(!b.offered, b.wavefronts, b.extra_bytes);
  });
  out.alternatives = std::move(alts);
  return out;
}

void AtomicRewriteListener::on_access(const emu::AccessEvent& e) {
  if (model::space_of(e.access.op) != model::Space::Shared) {
    next_->on_access(e);
    return;
  }
  for (const AtomicRewrite& r : rewrites_)
    if (inside(r, e.access)) {
      emu::AccessEvent out = e;
      for (const model::WarpAccess& a : rewrite_atomic_access(r, e.access, e.warp)) {
        if (a.mask == 0) continue;
        out.access = a;
        next_->on_access(out);
      }
      return;
    }
  next_->on_access(e);
}

}  // namespace warpscope::analysis
