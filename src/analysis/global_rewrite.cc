// global_rewrite.cc: global accesses moved or regrouped before pricing (see global_rewrite.h).
#include "analysis/global_rewrite.h"

#include <algorithm>

namespace warpscope::analysis {

namespace {

std::uint64_t round_up(std::uint64_t v, std::uint64_t unit) { return (v + unit - 1) / unit * unit; }

}  // namespace

GlobalRewriteListener::GlobalRewriteListener(std::unique_ptr<emu::Listener> next, std::vector<GlobalRewrite> rewrites,
                                             std::vector<emu::Region> regions, const model::Arch& arch)
    : next_(std::move(next)), rewrites_(std::move(rewrites)), regions_(std::move(regions)),
      sector_(static_cast<std::uint64_t>(arch.sector_bytes)) {
  for (std::size_t i = 0; i < rewrites_.size(); ++i)
    for (std::uint32_t pc : rewrites_[i].pcs) by_pc_.emplace(pc, i);
}

void GlobalRewriteListener::on_block_begin(const emu::BlockEvent& e) {
  seq_.clear();
  staged_.clear();
  next_->on_block_begin(e);
}

void GlobalRewriteListener::on_access(const emu::AccessEvent& e) {
  auto it = by_pc_.find(e.pc);
  if (it == by_pc_.end() || e.async_copy || model::space_of(e.access.op) != model::Space::Global) {
    next_->on_access(e);
    return;
  }
  const GlobalRewrite& r = rewrites_[it->second];
  emu::AccessEvent out = e;
  model::WarpAccess& a = out.access;
  switch (r.kind) {
    case GlobalRewrite::Kind::SoA:
      for (int l = 0; l < model::kWarpSize; ++l) {
        if (!a.active(l)) continue;
        std::uint64_t& addr = a.address[static_cast<std::size_t>(l)];
        for (const emu::Region& g : regions_)
          if (g.space == model::Space::Global && addr >= g.base && addr - g.base < g.size) {
            const std::uint64_t o = addr - g.base, n = round_up((g.size + r.stride - 1) / r.stride, 256);
            addr = g.base + o % r.stride * n + o / r.stride * static_cast<std::uint64_t>(a.width);
            break;
          }
      }
      break;
    case GlobalRewrite::Kind::Align: {
      std::uint64_t lo = ~0ull;
      for (int l = 0; l < model::kWarpSize; ++l)
        if (a.active(l)) lo = std::min(lo, a.address[static_cast<std::size_t>(l)]);
      const std::uint64_t d = lo % sector_;
      for (int l = 0; l < model::kWarpSize; ++l)
        if (a.active(l)) a.address[static_cast<std::size_t>(l)] -= d;
      break;
    }
    case GlobalRewrite::Kind::Widen:
      if (e.pc != r.pcs.front()) return;  // a partner: the leading access moves its bytes
      a.width *= r.factor;
      break;
    case GlobalRewrite::Kind::WidenLoop: {
      const std::uint32_t seq = seq_[{e.warp, e.pc}]++;
      if (seq % static_cast<std::uint32_t>(r.factor) != 0) return;
      a.width *= r.factor;
      break;
    }
    case GlobalRewrite::Kind::Stage: {
      auto [s, fresh] = staged_.try_emplace(it->second);
      if (fresh) s->second.first = e;
      for (int l = 0; l < model::kWarpSize; ++l)
        if (a.active(l)) s->second.elements.push_back(a.address[static_cast<std::size_t>(l)]);
      return;  // issued at the block's end
    }
  }
  next_->on_access(out);
}

void GlobalRewriteListener::on_block_end(const emu::BlockEvent& e) {
  for (auto& staged : staged_) {  // named: the lambda below captures it (clang < 16)
    const GlobalRewrite& r = rewrites_[staged.first];
    auto& s = staged.second;
    std::vector<std::uint64_t>& v = s.elements;
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    const auto w = static_cast<std::uint64_t>(s.first.access.width);
    int warp = 0;
    auto issue = [&](std::size_t from, std::size_t to) {
      emu::AccessEvent out = s.first;
      out.warp = warp++;
      out.access.mask = 0;
      for (std::size_t lane = 0; lane < model::kWarpSize && from + lane < to; ++lane) {
        out.access.mask |= 1u << lane;
        out.access.address[lane] = v[from + lane];
      }
      next_->on_access(out);
    };
    if (r.packed) {
      for (std::size_t k = 0; k < v.size(); k += model::kWarpSize) issue(k, v.size());
    } else {
      for (std::size_t i = 0; i < v.size();) {
        std::size_t j = i + 1;
        while (j < v.size() && v[j] == v[j - 1] + w) ++j;
        for (std::size_t k = i; k < j; k += model::kWarpSize) issue(k, j);
        i = j;
      }
    }
  }
  staged_.clear();
  next_->on_block_end(e);
}

}  // namespace warpscope::analysis
