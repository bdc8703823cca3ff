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
#include <cmath>
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
    // nvdisasm prints the inlining chain only where it changes: an instruction right after
    // another instance of the same helper keeps the earlier one's call site. The line table's
    // rows know better: when they name one line besides the innermost and not the chain's
    // call site, that line is the call site (two Pack128 loads at lines 93 and 94, back to
    // back: rows {93, 30} and {94, 30}, both printed "line 30 inlined at line 93").
    const sass::SassLoc* other = nullptr;
    int others = 0;
    bool chain_shown = false;
    for (const sass::SassLoc& l : inst.source_lines) {
      if (l == inst.loc) continue;
      if (l == inst.inlined_at.front()) chain_shown = true;
      other = &l;
      ++others;
    }
    if (!chain_shown && others == 1) {
      k.at_file = std::string(sass::base_name(other->file));
      k.at_line = other->line;
    }
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

// One element of a PTX access (a scalar access is one; ld.v2.u32 is two): ptxas may put the
// elements of one vector access in different SASS instructions (st.v2 [+104]; st [+112] ->
// STS [+104]; STS.64 [+108]).
struct PtxAccess {
  const ptx::Instruction* inst = nullptr;
  int order = 0;  // program order of the instruction across the functions
  Family family = Family::None;
  std::int64_t imm = 0;  // the element's immediate
  int width = 0;         // the element's bytes
  int offset = 0;        // its offset in the access
  int access_width = 0;  // the whole access's bytes
  LineKey line;
  double position = 0;   // where in the function, 0..1 (ptxas mostly keeps the order of blocks)
  int straight = 0;      // which straight-line stretch of code (no branch, label, barrier, store)
  int group = 0;         // its base's group: same group and offset, the same address
  bool symbol_only = false;  // [shared_symbol + imm]: SASS addresses it by a uniform register or immediate
};

struct SassAccess {
  int op = 0;  // memory_ops index
  int reg = -1, ureg = -1;
  std::int64_t imm = 0;
  int width = 0;
  LineKey line;
  double position = 0;  // where in the function, 0..1
};

// One PTX access placed in one SASS instruction, at a shift.
struct Placement {
  int ptx = 0;   // index into the accesses
  int sass = 0;  // index into the SASS candidates
  std::int64_t shift = 0;
};

struct Score {
  int overlaps = 0;   // PTX elements placed on bytes another element took (a last resort)
  int exact = 0;      // bytes of the SASS instructions the placed PTX elements tile exactly
  int splits = 0;     // PTX accesses whose elements went to different SASS instructions
  int narrowed = 0;   // SASS instructions inside a placed PTX element
  int covered = 0;    // PTX elements placed
  int same_line = 0;  // ... on their own line
  int as_is = 0;      // elements whose SASS instruction is their whole access, at its offset
  int used = 0;       // SASS instructions that received elements (fewer: the denser merge)
  double distance = 0;  // summed distance of the placed pairs' positions in their functions
  std::int64_t shift = 0;
  bool better_than(const Score& o) const {
    // Elements placed on bytes no other took first; then the denser exact tiling, and only then
    // fewer overlaps: an element that fits only where another went (Triton's scan reads
    // global_smem+0 at two lines, after its LDS.128 pair) does not decide the shift.
    if (covered - overlaps != o.covered - o.overlaps) return covered - overlaps > o.covered - o.overlaps;
    if (exact != o.exact) return exact > o.exact;
    if (overlaps != o.overlaps) return overlaps < o.overlaps;
    if (splits != o.splits) return splits < o.splits;
    if (narrowed != o.narrowed) return narrowed > o.narrowed;
    if (same_line != o.same_line) return same_line > o.same_line;
    if (as_is != o.as_is) return as_is > o.as_is;
    if (used != o.used) return used < o.used;
    if (distance != o.distance) return distance < o.distance;
    const auto a = shift < 0 ? -shift : shift, b = o.shift < 0 ? -o.shift : o.shift;
    return a < b;
  }
};

// Where each access of `todo` lands at shift d among the SASS accesses `cls`: inside one
// (the same, or merged) or around one (narrowed: ptxas reads only part of it).
std::vector<Placement> place(const std::vector<PtxAccess>& ptx, const std::vector<int>& todo,
                             const std::vector<SassAccess>& sass, const std::vector<std::uint32_t>& claimed,
                             const std::vector<int>& cls, std::int64_t d, bool narrow, Score& score) {
  std::vector<Placement> out;
  std::map<int, std::uint32_t> bytes;  // SASS candidate -> its bytes the placed elements cover (bit each)
  std::set<int> narrowed;              // SASS candidates inside a PTX element
  std::map<const ptx::Instruction*, int> chosen;  // the candidate an access's first element took
  std::set<const ptx::Instruction*> split_seen;
  score = Score{};
  score.shift = d;
  auto bits = [](std::int64_t from, int width) {
    return width >= 32 ? ~0u : ((1u << width) - 1u) << static_cast<unsigned>(from);
  };
  for (int i : todo) {
    const PtxAccess& p = ptx[static_cast<std::size_t>(i)];
    const std::int64_t lo = p.imm + d, hi = lo + p.width;
    // Of the SASS accesses containing it: one whose bytes no other access took (two PTX
    // accesses of one position are two SASS instructions), the one its access's first element
    // took, on its line, else on the nearest line (a merge across lines sits at one of its
    // parts' lines); else one it contains (narrowed).
    int found = -1;
    bool inside = false;
    long best = 0;
    // The elements of a vector access stay together where its first element went, if they fit.
    auto first = chosen.find(p.inst);
    const bool with_first = first != chosen.end() &&
                            sass[static_cast<std::size_t>(first->second)].imm <= lo &&
                            hi <= sass[static_cast<std::size_t>(first->second)].imm +
                                      sass[static_cast<std::size_t>(first->second)].width;
    if (with_first) {
      found = first->second;
      inside = true;
    }
    for (int s : cls) {
      if (with_first) break;
      const SassAccess& a = sass[static_cast<std::size_t>(s)];
      if (a.imm <= lo && hi <= a.imm + a.width && a.width <= 16) {
        auto b = bytes.find(s);
        const std::uint32_t mine = bits(lo - a.imm, p.width);
        // Bytes another access already took: last choice (a load ptxas found twice, kept once).
        const bool taken =
            (b != bytes.end() && (b->second & mine) != 0) || (claimed[static_cast<std::size_t>(s)] & mine) != 0;
        auto c = chosen.find(p.inst);
        const long dist = (taken ? 1L << 41 : 0) + (c != chosen.end() && c->second == s ? -1 : 0) +
                          (a.line.file != p.line.file ? 1L << 30
                                                      : std::labs(static_cast<long>(a.line.line - p.line.line)) * 2 +
                                                            (a.line == p.line ? 0 : 1));
        if (!inside || dist < best) {
          found = s;
          best = dist;
        }
        inside = true;
      } else if (narrow && !inside && found < 0 && lo <= a.imm && a.imm + a.width <= hi && !narrowed.count(s) &&
                 !is_store(p.family)) {  // a store writes all its bytes: never narrowed
        found = s;
      }
    }
    if (found < 0) continue;
    if (inside && !with_first && best >= (1L << 41)) ++score.overlaps;
    if (first == chosen.end()) chosen[p.inst] = found;
    else if (first->second != found && split_seen.insert(p.inst).second) ++score.splits;
    out.push_back({i, found, d});
    ++score.covered;
    const SassAccess& a = sass[static_cast<std::size_t>(found)];
    if (a.line == p.line) ++score.same_line;
    score.distance += std::fabs(a.position - p.position);
    if (inside) {
      if (a.width == p.access_width && lo - a.imm == p.offset) ++score.as_is;
      bytes[found] |= bits(lo - a.imm, p.width);
    } else {
      narrowed.insert(found);
      score.exact += a.width;
    }
  }
  for (const auto& [s, b] : bytes)
    if (b == bits(0, sass[static_cast<std::size_t>(s)].width)) score.exact += sass[static_cast<std::size_t>(s)].width;
  score.narrowed = static_cast<int>(narrowed.size());
  score.used = static_cast<int>(bytes.size() + narrowed.size());
  return out;
}

// Where ptxas puts the shared variables the functions use: in declaration order, each at
// its alignment (what the listings of nvcc's kernels show).
std::map<int, std::int64_t> shared_layout(const ptx::Module& module, const std::vector<const ptx::Function*>& functions) {
  std::set<int> used;
  for (const ptx::Function* f : functions)
    for (const ptx::Instruction& inst : f->body)
      for (int i = 0; i < inst.num_operands; ++i) {
        const ptx::Operand& o = inst.op(i);
        if ((o.kind == ptx::OperandKind::Addr || o.kind == ptx::OperandKind::Symbol) && o.symbol >= 0 &&
            static_cast<std::size_t>(o.symbol) < module.variables.size() &&
            module.variables[static_cast<std::size_t>(o.symbol)].space == ptx::Space::Shared &&
            !module.variables[static_cast<std::size_t>(o.symbol)].is_extern)
          used.insert(o.symbol);
      }
  std::map<int, std::int64_t> at;
  std::int64_t offset = 0;
  for (int v : used) {
    const ptx::Variable& var = module.variables[static_cast<std::size_t>(v)];
    const std::int64_t align = std::max(1, var.align > 0 ? var.align : ptx::type_bits(var.type) / 8);
    offset = (offset + align - 1) / align * align;
    at[v] = offset;
    offset += static_cast<std::int64_t>(var.size);
  }
  return at;
}

class AccessMatcher {
 public:
  AccessMatcher(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                const sass::SassFunction& sass, const std::vector<bool>& taken, SassPlan& plan)
      : plan_(plan) {
    const std::map<int, std::int64_t> shared_at = shared_layout(module, functions);
    int order = 0, stretch = 0;
    for (const ptx::Function* f : functions) note_dead_elements(*f);
    for (const ptx::Function* f : functions) {
      std::set<std::int64_t> targets;  // label targets: code reached from elsewhere
      for (const ptx::Instruction& inst : f->body)
        for (int i = 0; i < inst.num_operands; ++i)
          if (inst.op(i).kind == ptx::OperandKind::Label) targets.insert(inst.op(i).imm);
      ++stretch;
      for (std::size_t index = 0; index < f->body.size(); ++index) {
        const ptx::Instruction& inst = f->body[index];
        ++order;
        if (targets.count(static_cast<std::int64_t>(index))) ++stretch;
        const ptx::Family kind = ptx::family_of(inst.opcode);
        const bool breaks = kind == ptx::Family::Control || inst.opcode == ptx::Opcode::St ||
                            inst.opcode == ptx::Opcode::Atom || inst.opcode == ptx::Opcode::Red ||
                            inst.opcode == ptx::Opcode::CpAsync || inst.opcode == ptx::Opcode::StMatrix;
        if (breaks) ++stretch;
        const Family fam = ptx_family(inst);
        if (fam == Family::None) continue;
        const ptx::Operand& a = inst.op(is_store(fam) ? 0 : 1);
        const int elem = ptx::type_bits(inst.type) / 8;
        if (a.kind != ptx::OperandKind::Addr || elem <= 0) continue;
        // [shared_symbol + imm]: one group for all of them, at their offsets in the block's
        // shared memory (ptxas merges neighbouring variables' loads: LDS.64 [UR4+0xc00]).
        auto at = shared_at.find(a.symbol);
        const bool symbol_only = a.reg[0] == ptx::kNoReg && at != shared_at.end();
        const std::int64_t imm = symbol_only ? at->second + a.imm : a.imm;
        const auto key = std::make_tuple(fam, a.reg[0], symbol_only ? -2 : a.symbol);
        auto& group = groups_[key];
        const int group_id = static_cast<int>(std::distance(groups_.begin(), groups_.find(key)));
        // The whole access first; its elements only if it cannot be placed whole (run()).
        group.push_back(static_cast<int>(ptx_.size()));
        ptx_.push_back({&inst, order, fam, imm, elem * inst.vec, 0, elem * inst.vec, line_of(module, inst), 0, stretch,
                        group_id, symbol_only});
      }
    }
    for (PtxAccess& p : ptx_) p.position = order > 0 ? static_cast<double>(p.order) / order : 0;
    for (std::size_t i = 0; i < sass.memory_ops.size(); ++i) {
      const sass::SassMemoryOp& op = sass.memory_ops[i];
      const Family fam = sass_family(op.kind);
      if (fam == Family::None || op.guard.never() || (i < taken.size() && taken[i])) continue;
      by_family_[fam].push_back(static_cast<int>(cands_.size()));
      cands_.push_back({static_cast<int>(i), op.address.reg, op.address.ureg, op.address.imm, op.width,
                        line_of(sass.instructions[static_cast<std::size_t>(op.instruction)]),
                        static_cast<double>(op.instruction) / static_cast<double>(sass.instructions.size())});
    }
    claimed_.assign(cands_.size(), 0);
  }

  void run() {
    for (auto& [key, members] : groups_) {
      const Family fam = std::get<0>(key);
      std::vector<int> todo = members;
      std::set<std::pair<Family, std::pair<int, int>>> used;  // SASS classes this group has taken
      // All shared symbols at once (merges across neighbouring variables), only as laid out
      // (no narrowing, where a wrong guess of the layout would show); then each symbol alone.
      const bool symbols = std::get<2>(key) == -2;
      narrow_ = !symbols;
      for (Scope scope : {Scope::Position, Scope::Line, Scope::Function})
        for (int round = 0; round < 8 && !todo.empty(); ++round)
          if (!match_round(fam, todo, used, scope)) break;
      narrow_ = true;
      if (symbols && !todo.empty()) {
        std::map<int, std::vector<int>> by_symbol;
        for (int i : todo) {
          const ptx::Instruction& inst = *ptx_[static_cast<std::size_t>(i)].inst;
          by_symbol[inst.op(is_store(fam) ? 0 : 1).symbol].push_back(i);
        }
        todo.clear();
        for (auto& [sym, part] : by_symbol) {
          for (Scope scope : {Scope::Position, Scope::Line, Scope::Function})
            for (int round = 0; round < 8 && !part.empty(); ++round)
              if (!match_round(fam, part, used, scope)) break;
          todo.insert(todo.end(), part.begin(), part.end());
        }
      }
      // Vector accesses no SASS instruction holds whole: their elements (ptxas splits some,
      // and merges a piece with a neighbour: st.v2 [+104]; st [+112] -> STS; STS.64 [+108]).
      std::vector<int> elements;
      for (int i : todo) {
        const PtxAccess whole = ptx_[static_cast<std::size_t>(i)];
        const int elem = ptx::type_bits(whole.inst->type) / 8;
        if (whole.inst->vec <= 1 || elem <= 0) {
          elements.push_back(i);
          continue;
        }
        for (int k = 0; k < whole.inst->vec; ++k) {
          PtxAccess e = whole;
          e.imm = whole.imm + k * elem;
          e.width = elem;
          e.offset = k * elem;
          elements.push_back(static_cast<int>(ptx_.size()));
          ptx_.push_back(e);
        }
      }
      todo = std::move(elements);
      for (Scope scope : {Scope::Position, Scope::Line, Scope::Function})
        for (int round = 0; round < 8 && !todo.empty(); ++round)
          if (!match_round(fam, todo, used, scope)) break;
      // A generic access ptxas proved to be global or shared (LD -> LDG/LDS).
      if (!todo.empty() && (fam == Family::GenericLoad || fam == Family::GenericStore)) {
        const Family others[2] = {fam == Family::GenericLoad ? Family::GlobalLoad : Family::GlobalStore,
                                  fam == Family::GenericLoad ? Family::SharedLoad : Family::SharedStore};
        for (Family other : others)
          for (int round = 0; round < 8 && !todo.empty(); ++round)
            if (!match_round(other, todo, used, Scope::Line)) break;
      }
    }
    finish();
  }

 private:
  // Which SASS instructions a round considers: those at the accesses' positions (with call
  // sites), at their lines (wherever inlined), or anywhere in the function (the line table
  // lost a level of inlining, or the access has no line).
  enum class Scope : std::uint8_t { Position, Line, Function };

  // One round: the best SASS register and shift for the elements in `todo`; removes the
  // elements it places. False when nothing could be placed.
  bool match_round(Family fam, std::vector<int>& todo, std::set<std::pair<Family, std::pair<int, int>>>& used,
                   Scope scope, bool any_line = false) {
    const bool strict = scope == Scope::Position;
    auto key = [strict](const LineKey& k) { return strict ? k : k.loose(); };
    std::set<LineKey> lines;
    bool anywhere = scope == Scope::Function;
    if (anywhere) {  // only accesses whose line has no SASS instruction of this kind at all
      std::set<LineKey> sass_lines;
      for (int s : by_family_[fam]) sass_lines.insert(cands_[static_cast<std::size_t>(s)].line.loose());
      std::vector<int> lost;
      for (int i : todo)
        if (!sass_lines.count(ptx_[static_cast<std::size_t>(i)].line.loose())) lost.push_back(i);
      if (lost.empty()) return false;
      std::vector<int> rest;
      for (int i : todo)
        if (sass_lines.count(ptx_[static_cast<std::size_t>(i)].line.loose())) rest.push_back(i);
      const bool placed = match_round(fam, lost, used, Scope::Line, true);
      todo = rest;
      todo.insert(todo.end(), lost.begin(), lost.end());
      return placed;
    }
    for (int i : todo) {
      const LineKey& k = ptx_[static_cast<std::size_t>(i)].line;
      lines.insert(key(k));
      anywhere = anywhere || any_line || (!strict && k.line == 0);  // no position: it may be anywhere
    }
    std::map<std::pair<int, int>, std::vector<int>> classes;  // SASS base (reg, ureg) -> candidates
    for (int s : by_family_[fam]) {
      const SassAccess& a = cands_[static_cast<std::size_t>(s)];
      if (anywhere || lines.count(key(a.line))) classes[{a.reg, a.ureg}].push_back(s);
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
        std::vector<Placement> pl = place(ptx_, todo, cands_, claimed_, cls, d, narrow_, sc);
        if (sc.covered > 0 && (best_places.empty() || sc.better_than(best))) {
          best = sc;
          best_places = std::move(pl);
          best_base = base;
        }
      }
    }
    if (best_places.empty()) return false;
    used.insert({fam, best_base});  // (kept for the record: a later round may use it again)
    std::set<int> placed;
    for (const Placement& p : best_places) {
      placed.insert(p.ptx);
      places_.push_back(p);
      const PtxAccess& a = ptx_[static_cast<std::size_t>(p.ptx)];
      const SassAccess& c = cands_[static_cast<std::size_t>(p.sass)];
      const std::int64_t lo = a.imm + p.shift - c.imm;
      if (lo >= 0 && lo + a.width <= c.width && c.width <= 16)
        claimed_[static_cast<std::size_t>(p.sass)] |= ((1u << a.width) - 1u) << static_cast<unsigned>(lo);
    }
    todo.erase(std::remove_if(todo.begin(), todo.end(), [&](int i) { return placed.count(i) > 0; }), todo.end());
    return true;
  }

  // A PTX access's share of one SASS instruction: contiguous elements [offset, offset + width).
  struct Contribution {
    const ptx::Instruction* inst = nullptr;
    int order = 0;
    int offset = 0;
    int width = 0;
    std::int64_t imm = 0;  // of its first element
    int straight = 0;      // PtxAccess::straight
    int group = 0;         // PtxAccess::group
  };

  // Roles from every placement: as is, a merge (static or dynamic), or pieces.
  void finish() {
    std::map<int, std::vector<Contribution>> inside;            // SASS candidate -> PTX shares in it
    std::map<const ptx::Instruction*, std::vector<Piece>> narrowed;  // SASS reads inside PTX elements
    std::map<const ptx::Instruction*, std::set<int>> placed_elements;
    std::map<const ptx::Instruction*, int> access_width;
    std::map<const ptx::Instruction*, int> order;
    std::map<const ptx::Instruction*, Family> family;
    for (const PtxAccess& p : ptx_) {
      access_width[p.inst] = p.access_width;
      order[p.inst] = p.order;
      family[p.inst] = p.family;
    }
    for (const Placement& pl : places_) {
      const PtxAccess& a = ptx_[static_cast<std::size_t>(pl.ptx)];
      const SassAccess& s = cands_[static_cast<std::size_t>(pl.sass)];
      // The PTX elements the SASS instruction reads: all of the access's, or those of the
      // bytes it narrowed the access to.
      const int elem = std::max(1, ptx::type_bits(a.inst->type) / 8);
      auto place = [&](int from, int bytes) {
        for (int off = from / elem * elem; off < from + bytes; off += elem) placed_elements[a.inst].insert(off);
      };
      if (s.width >= a.width) {
        place(a.offset, a.width);
        auto& cs = inside[pl.sass];
        auto c = std::find_if(cs.begin(), cs.end(), [&](const Contribution& x) {
          return x.inst == a.inst && x.offset + x.width == a.offset;
        });
        if (c != cs.end()) c->width += a.width;
        else cs.push_back({a.inst, a.order, a.offset, a.width, a.imm, a.straight, a.group});
      } else {
        const Piece piece{static_cast<int>(s.imm - (a.imm + pl.shift)) + a.offset, s.width};
        place(piece.offset, piece.width);
        auto& ps = narrowed[a.inst];
        if (std::find(ps.begin(), ps.end(), piece) == ps.end()) ps.push_back(piece);
      }
    }
    // SASS instructions of a register no PTX access landed in, at an offset none of the
    // register's filled ones has, by (register, width, line): a loop ptxas unrolled further than
    // the PTX, so that the PTX's later iterations fill them. (An empty one at a filled one's
    // offset is a copy of it on another path.)
    std::map<std::tuple<int, int, int, LineKey>, std::set<std::int64_t>> filled_at, empty_at;
    for (std::size_t s = 0; s < cands_.size(); ++s) {
      const SassAccess& a = cands_[s];
      (inside.count(static_cast<int>(s)) ? filled_at : empty_at)[{a.reg, a.ureg, a.width, a.line.loose()}].insert(a.imm);
    }
    std::set<std::tuple<int, int, int, LineKey>> empty;
    for (const auto& [key, imms] : empty_at) {
      const auto& filled = filled_at[key];
      if (std::any_of(imms.begin(), imms.end(), [&](std::int64_t i) { return !filled.count(i); })) empty.insert(key);
    }
    // Of those, the registers whose loads all sit at distinct offsets: ptxas unrolled the loop
    // and loaded each address once, keeping the value across iterations (load_reuse.h).
    std::map<std::tuple<int, int, int, LineKey>, int> count_at;
    for (const SassAccess& a : cands_) ++count_at[{a.reg, a.ureg, a.width, a.line.loose()}];
    std::map<std::tuple<int, int, int, LineKey>, int> reuse_group;  // -> group id
    std::map<const ptx::Instruction*, std::pair<int, int>> reuse_of;  // -> (group, slots)
    auto reusable = [&](const SassAccess& sa, const Contribution& c) {
      const auto key = std::make_tuple(sa.reg, sa.ureg, sa.width, sa.line.loose());
      if (is_store(family[c.inst]) || !empty.count(key)) return;
      const int n = count_at[key];
      std::set<std::int64_t> offsets = filled_at[key];
      offsets.insert(empty_at[key].begin(), empty_at[key].end());
      if (static_cast<int>(offsets.size()) != n) return;  // copies of a load (other paths): not this
      auto it = reuse_group.find(key);
      if (it == reuse_group.end()) it = reuse_group.emplace(key, plan_.next_group++).first;
      reuse_of[c.inst] = {it->second, n};
    };
    // Per SASS instruction: a merge when it holds more than one share, or a share narrower
    // than itself; `shares` says where each access's bytes go.
    std::map<const ptx::Instruction*, std::vector<Piece>> shares;
    std::map<std::tuple<int, int, int>, int> dynamic_group;  // SASS (reg, ureg, width) -> group id
    std::set<const ptx::Instruction*> dropped;
    for (auto& [s, cs] : inside) {
      const SassAccess& sa = cands_[static_cast<std::size_t>(s)];
      std::sort(cs.begin(), cs.end(), [](const Contribution& a, const Contribution& b) {
        return a.order != b.order ? a.order < b.order : a.offset < b.offset;
      });
      // A whole load of the same address (base and offset) as another load of the same
      // straight stretch of code, both in this SASS instruction: ptxas kept one (CSE).
      if (!is_store(family[cs.front().inst])) {
        std::vector<Contribution> kept;
        for (const Contribution& c : cs) {
          const bool whole = c.offset == 0 && c.width == access_width[c.inst];
          auto same_bytes = [&](const Contribution& k) {
            return k.inst != c.inst && k.group == c.group && k.straight == c.straight && k.imm <= c.imm &&
                   c.imm + c.width <= k.imm + k.width;
          };
          const bool covered = std::any_of(kept.begin(), kept.end(), same_bytes) ||
                               std::any_of(cs.begin(), cs.end(), [&](const Contribution& k) {
                                 return k.width > c.width && same_bytes(k);
                               });
          if (whole && covered) dropped.insert(c.inst);
          else kept.push_back(c);
        }
        cs = std::move(kept);
        if (cs.empty()) continue;
      }
      int bytes = 0;
      std::set<std::int64_t> offsets;
      for (const Contribution& c : cs) {
        bytes += c.width;
        offsets.insert(c.imm);
      }
      const bool alone = cs.size() == 1 && cs.front().width == sa.width;
      const bool duplicates = std::all_of(cs.begin(), cs.end(), [&](const Contribution& c) { return c.width == sa.width; });
      if (alone || duplicates) {  // runs as it is written
        for (const Contribution& c : cs) shares[c.inst].push_back({c.offset, c.width});
        if (alone) reusable(sa, cs.front());
        continue;
      }
      // Static: the parts are known (a load reading more than its parts, ptxas's over-read of
      // a remainder, is static too). Dynamic: some bytes come from other iterations.
      const bool distinct = offsets.size() == cs.size();
      const bool unrolled = bytes < sa.width && empty.count({sa.reg, sa.ureg, sa.width, sa.line.loose()});
      const bool exact = distinct && !unrolled;
      int group = 0;
      ++plan_.groups;  // one more SASS instruction that merges PTX accesses
      if (exact) {
        group = plan_.next_group++;
      } else {
        const auto key = std::make_tuple(sa.reg, sa.ureg, sa.width);
        auto it = dynamic_group.find(key);
        if (it == dynamic_group.end()) it = dynamic_group.emplace(key, plan_.next_group++).first;
        group = it->second;
      }
      // A merged load runs where its first part is (ptxas hoists the rest), a store at its last.
      const bool store = is_store(family[cs.front().inst]);
      const std::size_t anchor = store ? cs.size() - 1 : 0;
      for (std::size_t k = 0; k < cs.size(); ++k) {
        Piece p{cs[k].offset, cs[k].width};
        p.merged = true;
        p.merge = MergeRole{group, sa.width, !exact, exact && k == anchor, static_cast<int>(k), static_cast<int>(cs.size())};
        shares[cs[k].inst].push_back(p);
      }
    }
    for (const ptx::Instruction* inst : dropped) {
      if (shares.count(inst) || narrowed.count(inst)) continue;  // it runs elsewhere too
      InstructionPlan& r = plan_.roles[inst];
      r.action = InstructionPlan::Action::Drop;
      ++plan_.dropped;
    }
    for (auto& [inst, ps] : narrowed) {  // an element placed alone too is one piece
      auto& sh = shares[inst];
      for (const Piece& p : ps)
        if (std::find(sh.begin(), sh.end(), p) == sh.end()) sh.push_back(p);
    }
    for (auto& [inst, ps] : shares) {
      std::sort(ps.begin(), ps.end(), [](const Piece& a, const Piece& b) { return a.offset < b.offset; });
      const int width = access_width[inst];
      InstructionPlan& r = plan_.roles[inst];
      if (ps.size() == 1 && ps[0].offset == 0 && ps[0].width == width) {
        if (ps[0].merged) {
          r.action = InstructionPlan::Action::Merge;
          r.merge = ps[0].merge;
        } else if (auto re = reuse_of.find(inst); re != reuse_of.end()) {  // as is, unless held
          r.reuse_group = re->second.first;
          r.reuse_slots = re->second.second;
          ++plan_.reuse_groups;
        }
        continue;
      }
      // Elements no SASS instruction explained run as written, but for a vector load's
      // elements whose registers nothing reads: ptxas loads only the rest (curand's
      // XORWOW state, a ld.v2 of whose words curand_normal reads one: LDG.E).
      for (int off = 0; off < width; off += ptx::type_bits(inst->type) / 8)
        if (!placed_elements[inst].count(off) && !dead_elements_.count({inst, off}))
          ps.push_back({off, ptx::type_bits(inst->type) / 8});
      std::sort(ps.begin(), ps.end(), [](const Piece& a, const Piece& b) { return a.offset < b.offset; });
      r.action = InstructionPlan::Action::Reshape;
      r.pieces = ps;
      ++plan_.narrowed;
    }
    for (const PtxAccess& p : ptx_)
      if (!placed_elements.count(p.inst) && !unmatched_set_.count(p.inst)) {
        unmatched_set_.insert(p.inst);
        unmatched_.push_back(p.inst);
      }
  }

 public:
  // The accesses no SASS instruction explained, program order.
  const std::vector<const ptx::Instruction*>& unmatched() const { return unmatched_; }
  // The SASS instructions each PTX access was placed in.
  void placements(const sass::SassFunction& sass, Placements& out) const {
    for (const Placement& p : places_) {
      const int i = sass.memory_ops[static_cast<std::size_t>(cands_[static_cast<std::size_t>(p.sass)].op)].instruction;
      auto& v = out[ptx_[static_cast<std::size_t>(p.ptx)].inst];
      if (std::find(v.begin(), v.end(), i) == v.end()) v.push_back(i);
    }
  }
  // Marks in `taken` (by memory_ops index) the SASS instructions PTX accesses were placed in.
  void mark_claimed(std::vector<bool>& taken) const {
    for (std::size_t c = 0; c < cands_.size(); ++c) {
      if (claimed_[c] == 0) continue;
      const auto i = static_cast<std::size_t>(cands_[c].op);
      if (taken.size() <= i) taken.resize(i + 1, false);
      taken[i] = true;
    }
  }

 private:
  SassPlan& plan_;
  std::vector<PtxAccess> ptx_;
  std::vector<SassAccess> cands_;
  std::map<std::tuple<Family, std::uint32_t, std::int32_t>, std::vector<int>> groups_;
  std::map<Family, std::vector<int>> by_family_;
  std::vector<Placement> places_;
  std::vector<std::uint32_t> claimed_;  // per SASS candidate: the bytes placed PTX elements took
  bool narrow_ = true;                  // rounds may place a SASS access inside a PTX one
  std::vector<const ptx::Instruction*> unmatched_;
  std::set<const ptx::Instruction*> unmatched_set_;
  // (load, byte offset) of vector loads' elements whose register no instruction of the
  // function names but the load itself.
  std::set<std::pair<const ptx::Instruction*, int>> dead_elements_;

  void note_dead_elements(const ptx::Function& f) {
    std::map<std::uint32_t, int> reads;  // as drop_dead_loads counts them (sass_plan.cc)
    for (const ptx::Instruction& inst : f.body)
      for (std::uint32_t r : registers_read(inst)) ++reads[r];
    for (const ptx::Instruction& inst : f.body) {
      if ((inst.opcode != ptx::Opcode::Ld && inst.opcode != ptx::Opcode::Ldu) || inst.vec < 2 || inst.num_operands < 1 ||
          inst.op(0).kind != ptx::OperandKind::Vec)
        continue;
      const int elem = ptx::type_bits(inst.type) / 8;
      for (int k = 0; k < inst.op(0).count; ++k) {
        const std::uint32_t r = inst.vec_reg(inst.op(0), k);
        if (r == ptx::kNoReg || reads[r] == 0) dead_elements_.insert({&inst, k * elem});
      }
    }
  }
};

}  // namespace

void match_accesses(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                    const sass::SassFunction& sass, std::vector<bool>& taken, SassPlan& plan, Placements* placed) {
  AccessMatcher m(module, functions, sass, taken, plan);
  m.run();
  m.mark_claimed(taken);
  if (placed != nullptr) m.placements(sass, *placed);
  for (const ptx::Instruction* inst : m.unmatched()) {
    ++plan.unmatched_ptx;
    plan.roles[inst].unmatched = true;
  }
}

}  // namespace warpscope::analysis::detail
