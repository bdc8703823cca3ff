// sass_lines.cc: the Source-page lines of each PTX memory access, from the SASS it became.
//
// ncu shows a SASS instruction at the lines of its line-table rows (sass_listing.h,
// source_lines), which differ from the PTX's .loc: ptxas schedules instructions onto other
// lines (a wgmma's HGMMA at the loop's line and at the wgmma.fence's), and shows inlined code
// at a call site only where the inlined instance begins. Each PTX access is paired with the
// SASS instructions of its family (ld.shared with LDS, wgmma with HGMMA, cp.async with
// LDGSTS, ...):
//   - at the same position (innermost line and nearest call site) when both sides have as
//     many: one to one in program order;
//   - else at the same innermost line (ptxas may file an inlined helper's instruction under
//     another of its call sites): one to one when as many; atomics with more SASS than PTX
//     (a CAS loop, helpers inlined at consecutive lines under one row) one to one in program
//     order, the rest to the last; else each PTX access gets all of them (loads and stores
//     merged, or a loop ptxas unrolled; fewer wgmma, cp.async, ... than PTX accesses: the
//     scheduler moved the others, below);
//   - the SASS instructions left (moved by the scheduler to lines no PTX access of the
//     family has) go to the PTX accesses left: one to one in order when as many, else each
//     to the nearest one by position in the function.
// A PTX access's cost is shared among the line sets of its SASS instructions by how many of
// them have each (the unrolled copies of one wgmma: 2 of 5 at the loop's line, 3 at the
// fence's). PTX accesses with no SASS instruction keep their .loc lines (kernel_report.cc).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/sass_match.h"

namespace warpscope::analysis::detail {

namespace {

enum class LineFamily : std::uint8_t {
  None, SharedLoad, SharedStore, GlobalLoad, GlobalStore, GenericLoad, GenericStore, SharedAtomic,
  GlobalAtomic, GenericAtomic, LdMatrix, StMatrix, CpAsync, Gmma, Tma, Bulk,
};

LineFamily ptx_family(const ptx::Instruction& i) {
  using O = ptx::Opcode;
  using S = ptx::Space;
  switch (i.opcode) {
    case O::Ld:
    case O::Ldu:
      return i.space == S::Shared ? LineFamily::SharedLoad : i.space == S::Global ? LineFamily::GlobalLoad
             : i.space == S::None ? LineFamily::GenericLoad : LineFamily::None;
    case O::St:
      return i.space == S::Shared ? LineFamily::SharedStore : i.space == S::Global ? LineFamily::GlobalStore
             : i.space == S::None ? LineFamily::GenericStore : LineFamily::None;
    case O::WmmaLoad: return i.space == S::Shared ? LineFamily::SharedLoad : i.space == S::Global ? LineFamily::GlobalLoad : LineFamily::GenericLoad;
    case O::WmmaStore: return i.space == S::Shared ? LineFamily::SharedStore : i.space == S::Global ? LineFamily::GlobalStore : LineFamily::GenericStore;
    case O::Atom:
    case O::Red:
      return i.space == S::Shared ? LineFamily::SharedAtomic : i.space == S::Global ? LineFamily::GlobalAtomic
                                                                                   : LineFamily::GenericAtomic;
    case O::LdMatrix: return LineFamily::LdMatrix;
    case O::StMatrix: return LineFamily::StMatrix;
    case O::CpAsync: return LineFamily::CpAsync;
    case O::Wgmma: return LineFamily::Gmma;
    case O::CpAsyncBulkTensor:
    case O::CpReduceAsyncBulkTensor:
    case O::CpAsyncBulkPrefetchTensor: return LineFamily::Tma;
    case O::CpAsyncBulk:
    case O::CpReduceAsyncBulk:
    case O::CpAsyncBulkPrefetch: return LineFamily::Bulk;
    default: return LineFamily::None;
  }
}

// The SASS opcodes (the mnemonic before its first dot) that run a family's accesses.
bool runs(LineFamily f, const std::string& op) {
  switch (f) {
    case LineFamily::SharedLoad: return op == "LDS" || op == "LDSM";
    case LineFamily::SharedStore: return op == "STS";
    case LineFamily::GlobalLoad: return op == "LDG";
    case LineFamily::GlobalStore: return op == "STG";
    case LineFamily::GenericLoad: return op == "LD" || op == "LDG" || op == "LDS";
    case LineFamily::GenericStore: return op == "ST" || op == "STG" || op == "STS";
    case LineFamily::SharedAtomic: return op == "ATOMS";
    case LineFamily::GlobalAtomic: return op == "ATOMG" || op == "RED" || op == "REDG" || op == "ATOM";
    case LineFamily::GenericAtomic: return op == "ATOM" || op == "ATOMG" || op == "RED" || op == "REDG" || op == "ATOMS";
    case LineFamily::LdMatrix: return op == "LDSM";
    case LineFamily::StMatrix: return op == "STSM";
    case LineFamily::CpAsync: return op == "LDGSTS";
    case LineFamily::Gmma: return op == "HGMMA" || op == "QGMMA" || op == "IGMMA" || op == "BGMMA";
    case LineFamily::Tma: return op.rfind("UTMA", 0) == 0;
    case LineFamily::Bulk: return op.rfind("UBLK", 0) == 0;
    case LineFamily::None: return false;
  }
  return false;
}

bool atomic(LineFamily f) {
  return f == LineFamily::SharedAtomic || f == LineFamily::GlobalAtomic || f == LineFamily::GenericAtomic;
}

// Loads and stores: ptxas merges several into one SASS instruction.
bool mergeable(LineFamily f) {
  return f == LineFamily::SharedLoad || f == LineFamily::SharedStore || f == LineFamily::GlobalLoad ||
         f == LineFamily::GlobalStore || f == LineFamily::GenericLoad || f == LineFamily::GenericStore;
}

struct Side {
  std::vector<int> ptx;   // indexes into the family's PTX accesses
  std::vector<int> sass;  // indexes into the function's instructions
};


}  // namespace

// A wgmma's or an HGMMA's N and where its A operand comes from ("64d": N 64, A by descriptor
// from shared memory; "64r": A in registers), empty for other instructions. Only those of one
// form pair: Triton's attention has QK^T (A in shared memory) and PV (A in registers) side by
// side, and ptxas files HGMMAs of one under the other's line (H200, corpus/triton attn_fwd).
std::string gmma_form(const ptx::Instruction& i) {
  if (i.opcode != ptx::Opcode::Wgmma) return {};
  const std::size_t m = i.text.find(".m64n");
  if (m == std::string::npos || i.num_operands < 2) return {};
  const std::size_t k = i.text.find('k', m + 5);
  const bool regs = i.op(1).kind == ptx::OperandKind::Vec;  // {a0, a1, a2, a3}; a descriptor is one register
  return i.text.substr(m + 5, k == std::string::npos ? 0 : k - m - 5) + (regs ? "r" : "d");
}
std::string gmma_form(const sass::SassInstruction& s) {
  if (s.modifiers.empty() || s.opcode.size() != 5 || s.opcode.compare(1, 4, "GMMA") != 0) return {};
  const std::string& shape = s.modifiers[0];  // 64x64x16
  const std::size_t x1 = shape.find('x'), x2 = shape.find('x', x1 == std::string::npos ? 0 : x1 + 1);
  if (x1 == std::string::npos || x2 == std::string::npos) return {};
  const std::size_t comma = s.operands.find(',');
  const std::size_t a = comma == std::string::npos ? std::string::npos : s.operands.find_first_not_of(' ', comma + 1);
  const bool regs = a != std::string::npos && s.operands[a] == 'R' && s.operands.compare(a, 2, "RZ") != 0;
  return shape.substr(x1 + 1, x2 - x1 - 1) + (regs ? "r" : "d");
}

namespace {

// Per instruction of `f`: the head of the innermost loop (a backward branch's span) holding it,
// -1 for none.
std::vector<int> innermost_loop_heads(const ptx::Function& f) {
  const int n = static_cast<int>(f.body.size());
  std::vector<int> head(static_cast<std::size_t>(n), -1), span(static_cast<std::size_t>(n), n + 1);
  for (int j = 0; j < n; ++j) {
    const ptx::Instruction& b = f.body[static_cast<std::size_t>(j)];
    if (b.opcode != ptx::Opcode::Bra || b.num_operands < 1 || b.op(0).kind != ptx::OperandKind::Label) continue;
    const int t = static_cast<int>(b.op(0).imm);
    if (t < 0 || t > j) continue;
    for (int k = t; k <= j; ++k)
      if (j - t < span[static_cast<std::size_t>(k)]) {
        span[static_cast<std::size_t>(k)] = j - t;
        head[static_cast<std::size_t>(k)] = t;
      }
  }
  return head;
}

// Items grouped by key, the groups in order of their first item.
std::vector<std::pair<int, std::vector<int>>> grouped(const std::vector<std::pair<int, int>>& keyed) {
  std::vector<std::pair<int, std::vector<int>>> groups;
  for (const auto& [key, item] : keyed) {
    auto it = std::find_if(groups.begin(), groups.end(), [key = key](const auto& g) { return g.first == key; });
    if (it == groups.end()) groups.push_back({key, {item}});
    else it->second.push_back(item);
  }
  return groups;
}

}  // namespace

std::vector<LineShare> line_shares(const sass::SassFunction& sass, const std::vector<int>& instructions) {
  std::map<std::vector<std::pair<std::string, int>>, std::pair<std::vector<sass::SassLoc>, int>> sets;
  for (int i : instructions) {
    const auto& lines = sass.instructions[static_cast<std::size_t>(i)].source_lines;
    std::vector<std::pair<std::string, int>> key;
    std::vector<sass::SassLoc> unique;  // a line shown once, whatever its rows
    for (const sass::SassLoc& l : lines)
      if (std::find(key.begin(), key.end(), std::make_pair(l.file, l.line)) == key.end()) {
        key.emplace_back(l.file, l.line);
        unique.push_back(l);
      }
    std::sort(key.begin(), key.end());
    auto& slot = sets[key];
    if (slot.second++ == 0) slot.first = std::move(unique);
  }
  std::vector<LineShare> shares;
  for (auto& [key, v] : sets)
    if (!key.empty()) shares.push_back({v.first, static_cast<double>(v.second) / static_cast<double>(instructions.size())});
  return shares;
}

void attribute_lines(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                     const sass::SassFunction& sass, const std::vector<bool>& claimed, SassPlan& plan,
                     const Placements* placed) {
  if (!sass.has_rows) return;  // a listing without the line table: the .loc lines (as without one)
  struct PtxAccess {
    const ptx::Instruction* inst;
    LineKey key;
    double position;
    const ptx::Function* function;
    int loop;  // the innermost PTX loop holding it (its head), -1 none
  };
  std::map<std::pair<LineFamily, std::string>, std::vector<PtxAccess>> accesses;  // by family and gmma_form
  for (const ptx::Function* f : functions) {
    const std::vector<int> loops = innermost_loop_heads(*f);
    for (std::size_t k = 0; k < f->body.size(); ++k) {
      const ptx::Instruction& inst = f->body[k];
      const LineFamily fam = ptx_family(inst);
      if (fam == LineFamily::None) continue;
      // A load ptxas removed (drop_dead_loads, sass_plan.cc) has no SASS instruction to pair.
      if (const InstructionPlan* r = plan.role(&inst); r != nullptr && r->action == InstructionPlan::Action::Drop) continue;
      accesses[{fam, gmma_form(inst)}].push_back({&inst, line_of(module, inst), f->body.size() > 1 ? static_cast<double>(k) / static_cast<double>(f->body.size() - 1) : 0.0, f, loops[k]});
    }
  }
  // The PTX accesses `ptx` (one function's) and the SASS instructions `sass_of` in as many
  // loops, in one order, as many in each (outside any loop counting as one more): the groups.
  auto same_loops = [&](const std::vector<PtxAccess>& ptx, const std::vector<int>& sass_of,
                        std::vector<std::vector<int>>& ptx_groups, std::vector<std::vector<int>>& sass_groups) {
    if (ptx.empty() || std::any_of(ptx.begin(), ptx.end(), [&](const PtxAccess& a) { return a.function != ptx[0].function; }))
      return false;
    std::vector<std::pair<int, int>> pk, sk;
    for (std::size_t p = 0; p < ptx.size(); ++p) pk.emplace_back(ptx[p].loop, static_cast<int>(p));
    for (int i : sass_of) sk.emplace_back(sass.loop_of(i), i);
    const auto pg = grouped(pk), sg = grouped(sk);
    int loops = 0;
    if (pg.size() != sg.size() || pg.size() < 2) return false;
    for (std::size_t g = 0; g < pg.size(); ++g) {
      if ((pg[g].first < 0) != (sg[g].first < 0) || pg[g].second.size() != sg[g].second.size()) return false;
      loops += pg[g].first >= 0 ? 1 : 0;
    }
    if (loops < 2) return false;
    // Each PTX loop's group with the SASS one of as many accesses that holds the most of the
    // instructions the matcher placed the group's accesses in (sass_match.h), else the next
    // in order: ptxas may lay out two loops in the other order (apex's cuApplyLayerNorm: the
    // `else` loop's STG first), or keep the order and swap their lines (below).
    std::vector<bool> taken(sg.size(), false);
    for (std::size_t g = 0; g < pg.size(); ++g) {
      std::set<int> placed_in;
      if (placed != nullptr)
        for (int p : pg[g].second)
          if (auto it = placed->find(ptx[static_cast<std::size_t>(p)].inst); it != placed->end())
            placed_in.insert(it->second.begin(), it->second.end());
      std::size_t best = sg.size();
      std::size_t best_held = 0;
      for (std::size_t h = 0; h < sg.size(); ++h) {
        if (taken[h] || (pg[g].first < 0) != (sg[h].first < 0) || pg[g].second.size() != sg[h].second.size()) continue;
        std::size_t held = 0;
        for (int i : sg[h].second) held += placed_in.count(i);
        if (best == sg.size() || held > best_held) {
          best = h;
          best_held = held;
        }
      }
      if (best == sg.size()) return false;
      taken[best] = true;
      ptx_groups.push_back(pg[g].second);
      sass_groups.push_back(sg[best].second);
    }
    return true;
  };
  const std::size_t n = sass.instructions.size();
  auto sass_position = [&](int i) { return n > 1 ? static_cast<double>(i) / static_cast<double>(n - 1) : 0.0; };
  for (auto& family : accesses) {
    // Named, not a structured binding: the lambdas below capture them (clang before 16 cannot
    // capture a structured binding).
    const auto fam = family.first.first;
    const std::string form = family.first.second;
    auto& ptx = family.second;
    std::vector<std::vector<int>> got(ptx.size());  // per PTX access: its SASS instructions
    std::vector<int> sass_of;                        // the family's SASS instructions
    for (std::size_t i = 0; i < n; ++i) {
      const sass::SassInstruction& s = sass.instructions[i];
      if (i < claimed.size() && claimed[i]) continue;  // a tensor map's words (sass_tensormap.cc)
      // A generic atomic's ATOMS.CAST is its shared-address fallback loop: it runs only when the
      // address is shared, and ncu shows the ATOM at its own lines (H200, rw_atomic_half2).
      if (fam == LineFamily::GenericAtomic && s.opcode == "ATOMS" &&
          std::find(s.modifiers.begin(), s.modifiers.end(), "CAST") != s.modifiers.end())
        continue;
      if (!s.guard.never() && runs(fam, s.opcode) && (form.empty() || gmma_form(s) == form)) sass_of.push_back(static_cast<int>(i));
    }
    // As many on both sides: one to one, those at the same call site first, the rest in order
    // (ptxas interleaves the copies of a helper inlined at two places).
    auto pair = [&](const std::vector<int>& ps, const std::vector<int>& ss) {
      std::map<LineKey, std::pair<std::vector<int>, std::vector<int>>> by;
      for (int p : ps) by[ptx[static_cast<std::size_t>(p)].key].first.push_back(p);
      for (int i : ss) by[line_of(sass.instructions[static_cast<std::size_t>(i)])].second.push_back(i);
      std::vector<int> rest_p, rest_s;
      for (auto& [key, v] : by) {
        const std::size_t m = std::min(v.first.size(), v.second.size());
        for (std::size_t k = 0; k < m; ++k) got[static_cast<std::size_t>(v.first[k])].push_back(v.second[k]);
        rest_p.insert(rest_p.end(), v.first.begin() + static_cast<std::ptrdiff_t>(m), v.first.end());
        rest_s.insert(rest_s.end(), v.second.begin() + static_cast<std::ptrdiff_t>(m), v.second.end());
      }
      std::sort(rest_p.begin(), rest_p.end());
      std::sort(rest_s.begin(), rest_s.end());
      for (std::size_t k = 0; k < rest_p.size() && k < rest_s.size(); ++k)
        got[static_cast<std::size_t>(rest_p[k])].push_back(rest_s[k]);
    };
    // The passes below, for the PTX accesses `mine` and the SASS instructions `theirs`.
    auto assign = [&](const std::vector<int>& mine, const std::vector<int>& theirs) {
    // A wgmma is one HGMMA: as many on both sides pair one to one, those at one line first,
    // the rest in order. ptxas spreads the HGMMA of dots in one loop over each other's lines
    // (H200, triton_v4_attn_bwd_fused: a dq step's descriptor HGMMA at lines 359-361 for dots
    // at 360 and 362), and every HGMMA of one form costs the same, so the lines come out as
    // ncu shows them whichever of its dots' wgmma each stands for.
    if (fam == LineFamily::Gmma && mine.size() == theirs.size()) {
      pair(mine, theirs);
      return;
    }
    std::vector<bool> ptx_done(ptx.size(), true);
    for (int p : mine) ptx_done[static_cast<std::size_t>(p)] = false;
    std::set<int> sass_done;
    // Pass 1: the same position (innermost line and nearest call site), as many on both sides.
    // Pass 2: the same innermost line (ptxas may name another call site of the helper).
    for (int pass = 0; pass < 2; ++pass) {
      std::map<LineKey, Side> at;
      for (std::size_t p = 0; p < ptx.size(); ++p)
        if (!ptx_done[p]) at[pass == 0 ? ptx[p].key : ptx[p].key.loose()].ptx.push_back(static_cast<int>(p));
      for (int i : theirs) {
        if (sass_done.count(i)) continue;
        const LineKey k = line_of(sass.instructions[static_cast<std::size_t>(i)]);
        at[pass == 0 ? k : k.loose()].sass.push_back(i);
      }
      for (auto& [key, side] : at) {
        if (side.ptx.empty() || side.sass.empty()) continue;
        if (side.ptx.size() == side.sass.size()) {
          pair(side.ptx, side.sass);
        } else if (pass == 1 && atomic(fam) && side.sass.size() > side.ptx.size()) {
          // Atomics: each becomes its own SASS instructions (a CAS loop or a shared fallback
          // more than one), in program order: one to one in order, the rest to the last
          // (histogram-style helpers inlined at consecutive lines share one row: H200,
          // corpus/sass atomics_shared line 28).
          std::vector<int> ps = side.ptx, ss = side.sass;
          std::sort(ps.begin(), ps.end());
          std::sort(ss.begin(), ss.end());
          for (std::size_t k = 0; k < ss.size(); ++k) got[static_cast<std::size_t>(ps[std::min(k, ps.size() - 1)])].push_back(ss[k]);
        } else if (pass == 1 && (mergeable(fam) || side.sass.size() > side.ptx.size())) {
          for (int p : side.ptx) got[static_cast<std::size_t>(p)] = side.sass;
        } else {
          continue;
        }
        for (int p : side.ptx) ptx_done[static_cast<std::size_t>(p)] = true;
        sass_done.insert(side.sass.begin(), side.sass.end());
      }
    }
    std::vector<int> orphan_ptx, orphan_sass;
    for (int p : mine)
      if (!ptx_done[static_cast<std::size_t>(p)]) orphan_ptx.push_back(p);
    for (int i : theirs)
      if (!sass_done.count(i)) orphan_sass.push_back(i);
    if (orphan_ptx.size() == orphan_sass.size())  // as many: in order (ptxas keeps the blocks' order)
      pair(orphan_ptx, orphan_sass);
    else if (!orphan_ptx.empty())
      for (int i : orphan_sass) {
        const double pos = sass_position(i);
        int best = orphan_ptx.front();
        for (int p : orphan_ptx)
          if (std::abs(ptx[static_cast<std::size_t>(p)].position - pos) < std::abs(ptx[static_cast<std::size_t>(best)].position - pos))
            best = p;
        got[static_cast<std::size_t>(best)].push_back(i);
      }
    };
    // ptxas keeps the order of loops: when the family's accesses lie in as many loops (and
    // stretches outside loops) on both sides, in the same order and as many in each, each
    // loop's PTX accesses pair with that loop's SASS instructions only (Triton's causal
    // attention: the diagonal loop's wgmma at lines the other loop's HGMMA also has).
    std::vector<std::vector<int>> ptx_groups, sass_groups;
    if (same_loops(ptx, sass_of, ptx_groups, sass_groups))
      for (std::size_t g = 0; g < ptx_groups.size(); ++g) assign(ptx_groups[g], sass_groups[g]);
    else {
      std::vector<int> all(ptx.size());
      for (std::size_t p = 0; p < ptx.size(); ++p) all[p] = static_cast<int>(p);
      assign(all, sass_of);
    }
    for (std::size_t p = 0; p < ptx.size(); ++p) {
      if (got[p].empty()) continue;
      plan.source_lines[ptx[p].inst] = line_shares(sass, got[p]);
      if (fam == LineFamily::CpAsync) {
        // Seen as AllZero or AllRead only when every LDGSTS of the copy names P0 alike.
        std::optional<model::SeenPredicate> seen;
        bool alike = true;
        for (int i : got[p]) {
          const auto s = ldgsts_seen_predicate(sass.instructions[static_cast<std::size_t>(i)]);
          alike = alike && s && (!seen || *seen == *s);
          seen = s;
        }
        if (alike && seen && *seen != model::SeenPredicate::Lanes) plan.copy_predicates[ptx[p].inst] = *seen;
      }
    }
  }
}

std::optional<model::SeenPredicate> ldgsts_seen_predicate(const sass::SassInstruction& s) {
  if (s.opcode != "LDGSTS") return std::nullopt;
  const auto has = [&](const char* m) { return std::find(s.modifiers.begin(), s.modifiers.end(), m) != s.modifiers.end(); };
  // Only the .cg form: an .ca copy naming P0 is seen as its lanes hold it (Triton's fp32 GEMM
  // B tile, `LDGSTS.E ... P0`: 32 an execution on the H200, its L1 reads' conflicts), and the
  // .ZFILL form was not measured.
  if (!has("BYPASS") || !has("128") || has("ZFILL")) return model::SeenPredicate::Lanes;
  const std::size_t comma = s.operands.rfind(',');
  if (comma == std::string::npos) return model::SeenPredicate::Lanes;
  std::string last = s.operands.substr(comma + 1);
  last.erase(0, last.find_first_not_of(' '));
  last.erase(last.find_last_not_of(' ') + 1);
  if (last == "P0") return model::SeenPredicate::AllZero;
  if (last == "!P0") return model::SeenPredicate::AllRead;
  return model::SeenPredicate::Lanes;
}

}  // namespace warpscope::analysis::detail
