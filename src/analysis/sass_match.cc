// sass_match.cc: which PTX loads and stores became which SASS instruction.
//
// Per kind (shared/global/generic load/store), PTX accesses are grouped by their address's
// base (register and symbol). For one such group and the SASS instructions of its lines that
// share a base register, every byte shift d = (SASS immediate - PTX immediate) is tried: at
// the right one each PTX access [imm + d, imm + d + w) lies inside a SASS access (the SASS
// one is the same, or wider: merged) or contains it (narrower: ptxas read only the bytes
// used). The shift that covers most SASS instructions exactly wins; what it leaves uncovered
// is matched again, against the remaining SASS registers.
//
//   PTX %r54: -128 -124 -96 -92 ... 96 100 (4 B)   SASS R32: 0x00 0x10 ... 0xf0 (16 B)
//   d = 128: every access inside a 16-byte LDS.128, two per instruction: the loop ptxas
//   unrolled supplies the other two at run time (a dynamic group).
#include "analysis/sass_match.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

namespace warpscope::analysis::detail {

LineKey line_of(const ptx::Module& module, const ptx::Instruction& inst) {
  auto name = [&](int file) {
    auto it = module.files.find(file);
    return it == module.files.end() ? std::string() : std::string(sass::base_name(it->second));
  };
  LineKey k{name(inst.debug.loc.file), inst.debug.loc.line, {}, 0};
  if (inst.debug.inlined() && inst.debug.inner.known()) {
    k.at_file = name(inst.debug.inner.file);
    k.at_line = inst.debug.inner.line;
  }
  return k;
}

LineKey line_of(const sass::SassInstruction& inst) {
  LineKey k{std::string(sass::base_name(inst.loc.file)), inst.loc.line, {}, 0};
  if (!inst.inlined_at.empty()) {
    k.at_file = std::string(sass::base_name(inst.inlined_at.front().file));
    k.at_line = inst.inlined_at.front().line;
  }
  return k;
}

namespace {

enum class Family : std::uint8_t { SharedLoad, SharedStore, GlobalLoad, GlobalStore, GenericLoad, GenericStore, None };

Family ptx_family(const ptx::Instruction& inst) {
  const bool load = inst.opcode == ptx::Opcode::Ld || inst.opcode == ptx::Opcode::Ldu;
  if (!load && inst.opcode != ptx::Opcode::St) return Family::None;
  switch (inst.space) {
    case ptx::Space::Shared: return load ? Family::SharedLoad : Family::SharedStore;
    case ptx::Space::Global: return load ? Family::GlobalLoad : Family::GlobalStore;
    case ptx::Space::None: return load ? Family::GenericLoad : Family::GenericStore;
    default: return Family::None;
  }
}

Family sass_family(sass::Kind k) {
  switch (k) {
    case sass::Kind::SharedLoad: return Family::SharedLoad;
    case sass::Kind::SharedStore: return Family::SharedStore;
    case sass::Kind::GlobalLoad: return Family::GlobalLoad;
    case sass::Kind::GlobalStore: return Family::GlobalStore;
    case sass::Kind::GenericLoad: return Family::GenericLoad;
    case sass::Kind::GenericStore: return Family::GenericStore;
    default: return Family::None;
  }
}

bool is_store(Family f) { return f == Family::SharedStore || f == Family::GlobalStore || f == Family::GenericStore; }

struct PtxAccess {
  const ptx::Instruction* inst = nullptr;
  int order = 0;  // program order across the functions
  Family family = Family::None;
  std::int64_t imm = 0;
  int width = 0;
  LineKey line;
};

struct SassAccess {
  int op = 0;  // memory_ops index
  int reg = -1, ureg = -1;
  std::int64_t imm = 0;
  int width = 0;
  LineKey line;
};

// One PTX access placed in one SASS instruction, at a shift.
struct Placement {
  int ptx = 0;   // index into the accesses
  int sass = 0;  // index into the SASS candidates
  std::int64_t shift = 0;
};

struct Score {
  int exact = 0;      // SASS instructions whose bytes the placed PTX accesses tile exactly
  int narrowed = 0;   // SASS instructions inside a placed PTX access
  int covered = 0;    // PTX accesses placed
  int same_line = 0;  // ... on their own line
  std::int64_t shift = 0;
  bool better_than(const Score& o) const {
    if (exact != o.exact) return exact > o.exact;
    if (narrowed != o.narrowed) return narrowed > o.narrowed;
    if (covered != o.covered) return covered > o.covered;
    if (same_line != o.same_line) return same_line > o.same_line;
    const auto a = shift < 0 ? -shift : shift, b = o.shift < 0 ? -o.shift : o.shift;
    return a < b;
  }
};

// Where each access of `todo` lands at shift d among the SASS accesses `cls`: inside one
// (the same, or merged) or around one (narrowed: ptxas reads only part of it).
std::vector<Placement> place(const std::vector<PtxAccess>& ptx, const std::vector<int>& todo,
                             const std::vector<SassAccess>& sass, const std::vector<int>& cls, std::int64_t d,
                             Score& score) {
  std::vector<Placement> out;
  std::map<int, int> bytes;  // SASS candidate -> PTX bytes placed inside it
  std::set<int> narrowed;    // SASS candidates inside a PTX access
  score = Score{};
  score.shift = d;
  for (int i : todo) {
    const PtxAccess& p = ptx[static_cast<std::size_t>(i)];
    const std::int64_t lo = p.imm + d, hi = lo + p.width;
    // Of the SASS accesses containing it, the one on its line, else on the nearest line (a
    // merge across lines sits at one of its parts' lines); else one it contains (narrowed).
    int found = -1;
    bool inside = false;
    long best = 0;
    for (int s : cls) {
      const SassAccess& a = sass[static_cast<std::size_t>(s)];
      if (a.imm <= lo && hi <= a.imm + a.width) {
        const long dist = a.line.file != p.line.file ? 1L << 30 : std::labs(static_cast<long>(a.line.line - p.line.line)) * 2 + (a.line == p.line ? 0 : 1);
        if (!inside || dist < best) {
          found = s;
          best = dist;
        }
        inside = true;
      } else if (!inside && found < 0 && lo <= a.imm && a.imm + a.width <= hi) {
        found = s;
      }
    }
    if (found < 0) continue;
    out.push_back({i, found, d});
    ++score.covered;
    if (sass[static_cast<std::size_t>(found)].line == p.line) ++score.same_line;
    if (inside) bytes[found] += p.width;
    else narrowed.insert(found);
  }
  for (const auto& [s, b] : bytes)
    if (b == sass[static_cast<std::size_t>(s)].width) ++score.exact;
  score.narrowed = static_cast<int>(narrowed.size());
  return out;
}

class AccessMatcher {
 public:
  AccessMatcher(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                const sass::SassFunction& sass, const std::vector<bool>& taken, SassPlan& plan)
      : plan_(plan) {
    int order = 0;
    for (const ptx::Function* f : functions)
      for (const ptx::Instruction& inst : f->body) {
        ++order;
        const Family fam = ptx_family(inst);
        if (fam == Family::None) continue;
        const ptx::Operand& a = inst.op(is_store(fam) ? 0 : 1);
        const int width = ptx::type_bits(inst.type) / 8 * inst.vec;
        if (a.kind != ptx::OperandKind::Addr || width <= 0) continue;
        groups_[{fam, a.reg[0], a.symbol}].push_back(static_cast<int>(ptx_.size()));
        ptx_.push_back({&inst, order, fam, a.imm, width, line_of(module, inst)});
      }
    for (std::size_t i = 0; i < sass.memory_ops.size(); ++i) {
      const sass::SassMemoryOp& op = sass.memory_ops[i];
      const Family fam = sass_family(op.kind);
      if (fam == Family::None || op.guard.never() || (i < taken.size() && taken[i])) continue;
      by_family_[fam].push_back(static_cast<int>(cands_.size()));
      cands_.push_back({static_cast<int>(i), op.address.reg, op.address.ureg, op.address.imm, op.width,
                        line_of(sass.instructions[static_cast<std::size_t>(op.instruction)])});
    }
  }

  void run() {
    for (auto& [key, members] : groups_) {
      const Family fam = std::get<0>(key);
      std::vector<int> todo = members;
      std::set<std::pair<Family, std::pair<int, int>>> used;  // SASS classes this group has taken
      for (bool strict : {true, false})
        for (int round = 0; round < 8 && !todo.empty(); ++round)
          if (!match_round(fam, todo, used, strict)) break;
      // A generic access ptxas proved to be global or shared (LD -> LDG/LDS).
      if (!todo.empty() && (fam == Family::GenericLoad || fam == Family::GenericStore)) {
        const Family others[2] = {fam == Family::GenericLoad ? Family::GlobalLoad : Family::GlobalStore,
                                  fam == Family::GenericLoad ? Family::SharedLoad : Family::SharedStore};
        for (Family other : others)
          for (int round = 0; round < 8 && !todo.empty(); ++round)
            if (!match_round(other, todo, used, false)) break;
      }
      unmatched_.insert(unmatched_.end(), todo.begin(), todo.end());
    }
  }

  // The accesses no SASS instruction explained, program order.
  std::vector<const ptx::Instruction*> unmatched() const {
    std::vector<int> u = unmatched_;
    std::sort(u.begin(), u.end());
    std::vector<const ptx::Instruction*> out;
    for (int i : u) out.push_back(ptx_[static_cast<std::size_t>(i)].inst);
    return out;
  }

 private:
  // One round: the best SASS register and shift for the accesses in `todo`; removes the
  // accesses it places. False when nothing could be placed. `strict`: SASS instructions at
  // the accesses' positions with their call sites; else at their lines, wherever inlined.
  bool match_round(Family fam, std::vector<int>& todo, std::set<std::pair<Family, std::pair<int, int>>>& used,
                   bool strict) {
    auto key = [strict](const LineKey& k) { return strict ? k : k.loose(); };
    std::set<LineKey> lines;
    for (int i : todo) lines.insert(key(ptx_[static_cast<std::size_t>(i)].line));
    std::map<std::pair<int, int>, std::vector<int>> classes;  // SASS base (reg, ureg) -> candidates
    for (int s : by_family_[fam]) {
      const SassAccess& a = cands_[static_cast<std::size_t>(s)];
      if (lines.count(key(a.line)) && !used.count({fam, {a.reg, a.ureg}})) classes[{a.reg, a.ureg}].push_back(s);
    }
    Score best;
    std::vector<Placement> best_places;
    std::pair<int, int> best_base{};
    for (auto& [base, cls] : classes) {
      std::set<std::int64_t> shifts;
      for (int s : cls) {
        for (int i : todo) shifts.insert(cands_[static_cast<std::size_t>(s)].imm - ptx_[static_cast<std::size_t>(i)].imm);
        if (shifts.size() >= 1024) break;
      }
      for (std::int64_t d : shifts) {
        Score sc;
        std::vector<Placement> pl = place(ptx_, todo, cands_, cls, d, sc);
        if (sc.covered > 0 && (best_places.empty() || sc.better_than(best))) {
          best = sc;
          best_places = std::move(pl);
          best_base = base;
        }
      }
    }
    if (best_places.empty()) return false;
    used.insert({fam, best_base});
    assign(fam, best_places);
    std::set<int> placed;
    for (const Placement& p : best_places) placed.insert(p.ptx);
    todo.erase(std::remove_if(todo.begin(), todo.end(), [&](int i) { return placed.count(i) > 0; }), todo.end());
    return true;
  }

  // Roles for the placed accesses: as is, a static or dynamic merge, or narrowed pieces.
  void assign(Family fam, const std::vector<Placement>& places) {
    std::map<int, std::vector<int>> inside;          // SASS candidate -> PTX accesses inside it
    std::map<int, std::vector<Placement>> around;    // PTX access -> SASS candidates inside it
    for (const Placement& p : places) {
      const PtxAccess& a = ptx_[static_cast<std::size_t>(p.ptx)];
      const SassAccess& s = cands_[static_cast<std::size_t>(p.sass)];
      if (s.width >= a.width) inside[p.sass].push_back(p.ptx);
      else around[p.ptx].push_back(p);
    }
    std::map<int, int> dynamic_group;  // SASS width -> group id, for this placement's dynamic parts
    for (auto& [s, parts] : inside) {
      const SassAccess& sa = cands_[static_cast<std::size_t>(s)];
      int bytes = 0;
      for (int i : parts) bytes += ptx_[static_cast<std::size_t>(i)].width;
      if (parts.size() == 1 && bytes == sa.width) continue;  // as is
      std::sort(parts.begin(), parts.end(), [&](int a, int b) {
        return ptx_[static_cast<std::size_t>(a)].order < ptx_[static_cast<std::size_t>(b)].order;
      });
      const bool exact = bytes == sa.width && distinct_offsets(parts);
      int group = 0;
      if (exact) {
        group = plan_.groups++;
      } else {
        auto it = dynamic_group.find(sa.width);
        if (it == dynamic_group.end()) it = dynamic_group.emplace(sa.width, plan_.groups++).first;
        group = it->second;
      }
      // A merged load runs where its first part is (ptxas hoists the rest), a store at its last.
      const int anchor = is_store(fam) ? parts.back() : parts.front();
      for (std::size_t k = 0; k < parts.size(); ++k) {
        const int i = parts[k];
        InstructionPlan& r = plan_.roles[ptx_[static_cast<std::size_t>(i)].inst];
        r.action = InstructionPlan::Action::Merge;
        r.merge = MergeRole{group, sa.width, !exact, exact && i == anchor, static_cast<int>(k),
                            static_cast<int>(parts.size())};
      }
    }
    for (auto& [i, ps] : around) {
      const PtxAccess& a = ptx_[static_cast<std::size_t>(i)];
      InstructionPlan& r = plan_.roles[a.inst];
      r.action = InstructionPlan::Action::Reshape;
      r.pieces.clear();
      for (const Placement& p : ps) {
        const SassAccess& sa = cands_[static_cast<std::size_t>(p.sass)];
        const Piece piece{static_cast<int>(sa.imm - (a.imm + p.shift)), sa.width};
        if (std::find(r.pieces.begin(), r.pieces.end(), piece) == r.pieces.end()) r.pieces.push_back(piece);
      }
      std::sort(r.pieces.begin(), r.pieces.end());
      ++plan_.narrowed;
    }
  }

  bool distinct_offsets(const std::vector<int>& parts) const {
    std::set<std::int64_t> offsets;
    for (int i : parts) offsets.insert(ptx_[static_cast<std::size_t>(i)].imm);
    return offsets.size() == parts.size();
  }

  SassPlan& plan_;
  std::vector<PtxAccess> ptx_;
  std::vector<SassAccess> cands_;
  std::map<std::tuple<Family, std::uint32_t, std::int32_t>, std::vector<int>> groups_;
  std::map<Family, std::vector<int>> by_family_;
  std::vector<int> unmatched_;
};

}  // namespace

void match_accesses(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                    const sass::SassFunction& sass, const std::vector<bool>& taken, SassPlan& plan) {
  AccessMatcher m(module, functions, sass, taken, plan);
  m.run();
  for (const ptx::Instruction* inst : m.unmatched()) {
    ++plan.unmatched_ptx;
    (void)inst;
  }
}

}  // namespace warpscope::analysis::detail
