// sass_unroll.cc: PTX loops ptxas unrolled into regions (sass_plan.h: UnrolledLoop).
//
// nvcc unrolls `for (t2 = 0; t2 <= t; ++t2) acc += r[t2];` by 4; ptxas unrolls that loop again
// (tests/data/sass/corpus/triangular.sass): the PTX's 4 loads of line 20 have, in SASS, 16
// copies in a loop, 8 in a block after it and 4 in a last loop. Counted in PTX iterations
// (copies / the PTX loop's loads of that line, kind and width): loop 4, block 2, loop 1.
#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "analysis/sass_match.h"

namespace warpscope::analysis::detail {
namespace {

// The kind of access a PTX load or store is, as sass::Kind names SASS ones; Other otherwise.
sass::Kind kind_of(const ptx::Instruction& inst) {
  const bool load = inst.opcode == ptx::Opcode::Ld || inst.opcode == ptx::Opcode::Ldu;
  if (!load && inst.opcode != ptx::Opcode::St) return sass::Kind::Other;
  switch (inst.space) {
    case ptx::Space::Shared: return load ? sass::Kind::SharedLoad : sass::Kind::SharedStore;
    case ptx::Space::Global: return load ? sass::Kind::GlobalLoad : sass::Kind::GlobalStore;
    case ptx::Space::None: return load ? sass::Kind::GenericLoad : sass::Kind::GenericStore;
    default: return sass::Kind::Other;
  }
}

using Key = std::tuple<sass::Kind, int, LineKey>;  // kind, bytes a lane, source position

struct Segment {
  bool loop = false;
  std::map<Key, int> count;                   // SASS copies of each key
  std::vector<const sass::SassMemoryOp*> ops;  // the copies, program order
};

// Innermost PTX loops: a backward branch at j to t that spans no other one.
std::vector<std::pair<int, int>> innermost_loops(const ptx::Function& f) {
  std::vector<std::pair<int, int>> loops;
  for (int j = 0; j < static_cast<int>(f.body.size()); ++j) {
    const ptx::Instruction& b = f.body[static_cast<std::size_t>(j)];
    if (b.opcode != ptx::Opcode::Bra || b.num_operands < 1 || b.op(0).kind != ptx::OperandKind::Label) continue;
    const int t = static_cast<int>(b.op(0).imm);
    if (t >= 0 && t <= j) loops.emplace_back(t, j);
  }
  std::vector<std::pair<int, int>> inner;
  for (const auto& l : loops)
    if (std::none_of(loops.begin(), loops.end(), [&](const auto& o) {
          return o != l && o.first >= l.first && o.second <= l.second;
        }))
      inner.push_back(l);
  return inner;
}

// The SASS copies of `keys`, as segments in program order: one per innermost SASS loop that
// holds copies (a loop around other such loops is not one: its copies are straight code), and
// one per stretch of straight code between them, split at branches (each block of ptxas's
// cascade is skipped by one).
std::vector<Segment> segments_of(const sass::SassFunction& sass, const std::map<Key, int>& keys) {
  std::vector<int> ops;  // memory_ops indexes, program order
  for (std::size_t m = 0; m < sass.memory_ops.size(); ++m) {
    const sass::SassMemoryOp& op = sass.memory_ops[m];
    const Key k{op.kind, op.width, line_of(sass.instructions[static_cast<std::size_t>(op.instruction)])};
    if (keys.count(k)) ops.push_back(static_cast<int>(m));
  }
  std::set<int> loops;
  for (int m : ops) loops.insert(sass.memory_ops[static_cast<std::size_t>(m)].loop);
  auto inner = [&](int l) {
    if (l < 0) return false;
    const sass::SassLoop& me = sass.loops[static_cast<std::size_t>(l)];
    return std::none_of(loops.begin(), loops.end(), [&](int o) {
      return o >= 0 && o != l && me.contains(sass.loops[static_cast<std::size_t>(o)].head);
    });
  };
  std::vector<Segment> out;
  int last_loop = -2, last_instruction = -1;
  for (int m : ops) {
    const sass::SassMemoryOp& op = sass.memory_ops[static_cast<std::size_t>(m)];
    const int region = inner(op.loop) ? op.loop : -1;
    bool split = out.empty() || region != last_loop;
    if (!split && region < 0)
      for (int i = last_instruction + 1; i < op.instruction && !split; ++i)
        split = sass.instructions[static_cast<std::size_t>(i)].opcode == "BRA";
    if (split) out.push_back({region >= 0, {}, {}});
    ++out.back().count[{op.kind, op.width, line_of(sass.instructions[static_cast<std::size_t>(op.instruction)])}];
    out.back().ops.push_back(&op);
    last_loop = region;
    last_instruction = op.instruction;
  }
  return out;
}

// The copies of one PTX iteration a segment holds: every key's count / its PTX accesses, the
// same for all keys; 0 when they disagree or do not divide.
int copies_of(const Segment& s, const std::map<Key, int>& keys) {
  int copies = -1;
  for (const auto& [k, n] : keys) {
    auto it = s.count.find(k);
    const int c = it == s.count.end() ? 0 : it->second;
    if (c % n != 0 || (copies >= 0 && c / n != copies)) return 0;
    copies = c / n;
  }
  for (const auto& [k, c] : s.count)
    if (!keys.count(k)) return 0;
  return std::max(copies, 0);
}

// Whether a schedule that ends in blocks, the last of one copy, covers every remainder the
// loop of U copies leaves: the blocks' copies add up to U - 1 (4: blocks of 2 and 1).
bool blocks_cover_the_rest(const std::vector<UnrollRegion>& regions) {
  int blocks = 0;
  for (std::size_t i = 1; i < regions.size(); ++i) blocks += regions[i].copies;
  return !regions.back().loop && regions.back().copies == 1 && blocks == regions.front().copies - 1;
}

// The schedule the segments show: a loop of U >= 2 copies, blocks of fewer (descending), and a
// loop of one, or blocks down to one that cover what the loop leaves (llm.c
// softmax_autoregressive_backward_kernel3: a loop of 4, blocks of 2 and 1). Empty when they
// show none.
std::vector<UnrollRegion> schedule_of(const std::vector<Segment>& segments, const std::map<Key, int>& keys) {
  for (std::size_t a = 0; a < segments.size(); ++a) {
    const int u = copies_of(segments[a], keys);
    if (!segments[a].loop || u < 2) continue;
    std::vector<UnrollRegion> regions{{u, true}};
    for (std::size_t b = a + 1; b < segments.size(); ++b) {
      const int c = copies_of(segments[b], keys);
      if (segments[b].loop) {
        if (c != 1) return {};
        regions.push_back({1, true});
        return regions;
      }
      if (c < 1 || c >= regions.back().copies) return {};
      regions.push_back({c, false});
      if (c == 1) return b + 1 == segments.size() && blocks_cover_the_rest(regions) ? regions : std::vector<UnrollRegion>{};
    }
    return {};
  }
  return {};
}

// The shaped form (ptxas merged the loop's loads across iterations as well): the SASS loads of
// `kind` at `line`, any width, per segment as in segments_of; a segment's copies are its bytes
// over `bytes` (one PTX iteration's; what is left over is the trip's over-fetch: an aligned
// LDS.128 before the first word), and its shape its accesses' offsets from the first and widths.
// All of a segment's accesses must share one base register.
std::vector<UnrollRegion> shaped_schedule(const sass::SassFunction& sass, sass::Kind kind, const LineKey& line, int bytes) {
  std::map<Key, int> keys;
  for (const sass::SassMemoryOp& op : sass.memory_ops)
    if (op.kind == kind && line_of(sass.instructions[static_cast<std::size_t>(op.instruction)]) == line) keys[{kind, op.width, line}] = 1;
  if (keys.empty()) return {};
  const std::vector<Segment> segs = segments_of(sass, keys);
  auto region_of = [&](const Segment& g) {
    UnrollRegion r;
    r.loop = g.loop;
    int total = 0;
    std::int64_t first = g.ops.front()->address.imm;
    for (const sass::SassMemoryOp* op : g.ops) {
      if (op->address.reg != g.ops.front()->address.reg || op->address.ureg != g.ops.front()->address.ureg) return UnrollRegion{0, r.loop, {}};
      total += op->width;
      first = std::min(first, op->address.imm);
    }
    for (const sass::SassMemoryOp* op : g.ops) r.shape.emplace_back(op->address.imm - first, op->width);
    std::sort(r.shape.begin(), r.shape.end());
    r.copies = total / bytes;
    return r;
  };
  for (std::size_t a = 0; a < segs.size(); ++a) {
    UnrollRegion head = region_of(segs[a]);
    if (!head.loop || head.copies < 2) continue;
    std::vector<UnrollRegion> regions{head};
    for (std::size_t b = a + 1; b < segs.size(); ++b) {
      UnrollRegion r = region_of(segs[b]);
      if (r.loop) {
        if (r.copies != 1) return {};
        regions.push_back(r);
        return regions;
      }
      if (r.copies < 1 || r.copies >= regions.back().copies) return {};
      regions.push_back(r);
      if (r.copies == 1) return b + 1 == segs.size() && blocks_cover_the_rest(regions) ? regions : std::vector<UnrollRegion>{};
    }
    return {};
  }
  return {};
}

}  // namespace

void match_unrolled_loops(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                          const sass::SassFunction& sass, SassPlan& plan) {
  for (const ptx::Function* f : functions) {
    for (const auto& [t, j] : innermost_loops(*f)) {
      std::vector<const ptx::Instruction*> members;
      std::map<Key, int> keys;
      bool priced_as_is = true, merged = true;  // every access as is; every one merged into wider loads
      int bytes = 0;
      for (int i = t; i <= j && (priced_as_is || merged); ++i) {
        const ptx::Instruction& inst = f->body[static_cast<std::size_t>(i)];
        const sass::Kind kind = kind_of(inst);
        if (kind == sass::Kind::Other) continue;
        const InstructionPlan* r = plan.role(&inst);
        const bool plain = r == nullptr || (r->reuse_group < 0 && !r->has_atomic && !r->polls && !r->unmatched && r->unrolled < 0);
        priced_as_is = priced_as_is && plain && (r == nullptr || r->action == InstructionPlan::Action::AsIs);
        merged = merged && plain && r != nullptr && r->action == InstructionPlan::Action::Merge && sass::is_load(kind);
        const int width = ptx::type_bits(inst.type) / 8 * inst.vec;
        bytes += width;
        ++keys[{kind, width, line_of(module, inst)}];
        members.push_back(&inst);
      }
      if ((!priced_as_is && !merged) || members.empty()) continue;
      std::vector<UnrollRegion> regions;
      if (priced_as_is) {
        regions = schedule_of(segments_of(sass, keys), keys);
      } else if (keys.size() == 1) {  // one kind and line: the shaped form
        const Key& k = keys.begin()->first;
        regions = shaped_schedule(sass, std::get<0>(k), std::get<2>(k), bytes);
      }
      if (regions.empty()) continue;
      const int id = static_cast<int>(plan.unrolled_loops.size());
      plan.unrolled_loops.push_back({std::move(regions)});
      for (const ptx::Instruction* inst : members) plan.roles[inst].unrolled = id;
    }
  }
}

}  // namespace warpscope::analysis::detail
