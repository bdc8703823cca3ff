// global_advice.cc: moving or regrouping recorded global accesses, and re-pricing them.
#include "analysis/global_advice.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include "analysis/element_type.h"
#include "layout/layout_code.h"
#include "model/access_cost.h"
#include "model/global_cost.h"
#include "ptx/source_position.h"

namespace warpscope::analysis {

namespace {

constexpr std::uint64_t kMaxStruct = 256;  // a lane stride up to this is read as a struct size

std::string num(std::uint64_t v) { return std::to_string(v); }

std::uint64_t round_up(std::uint64_t v, std::uint64_t unit) { return (v + unit - 1) / unit * unit; }

std::vector<model::WarpAccess> accesses_of(const GlobalInstruction& inst) {
  std::vector<model::WarpAccess> out;
  out.reserve(inst.executions.size());
  for (const GlobalExecution& x : inst.executions) out.push_back(x.access);
  return out;
}

// The constant byte step between consecutive lanes (a_l = a_first + (l - first) * step for
// every active lane), when the active lanes ascend by one; empty otherwise or for one lane.
std::optional<std::uint64_t> lane_stride(const model::WarpAccess& a) {
  int first = -1, second = -1;
  for (int l = 0; l < model::kWarpSize && second < 0; ++l)
    if (a.active(l)) (first < 0 ? first : second) = l;
  if (second < 0) return std::nullopt;
  const std::uint64_t a0 = a.address[static_cast<std::size_t>(first)];
  const std::uint64_t a1 = a.address[static_cast<std::size_t>(second)];
  if (a1 <= a0 || (a1 - a0) % static_cast<std::uint64_t>(second - first) != 0) return std::nullopt;
  const std::uint64_t step = (a1 - a0) / static_cast<std::uint64_t>(second - first);
  for (int l = second + 1; l < model::kWarpSize; ++l)
    if (a.active(l) && a.address[static_cast<std::size_t>(l)] != a0 + static_cast<std::uint64_t>(l - first) * step)
      return std::nullopt;
  return step;
}

GlobalPrice scaled(const GlobalPrice& p, double scale) {
  auto s = [scale](std::uint64_t v) {
    return static_cast<std::uint64_t>(std::llround(static_cast<double>(v) * scale));
  };
  return {s(p.sectors), s(p.requests), s(p.ideal)};
}

std::optional<GlobalChange> if_saves(GlobalChange c) {
  if (c.after.sectors >= c.before.sectors) return std::nullopt;
  return c;
}

// Every access of one warp is one contiguous run of its lanes' bytes (in any lane order).
bool one_run_per_warp(const GlobalInstruction& inst) {
  for (const GlobalExecution& x : inst.executions) {
    std::vector<std::uint64_t> a;
    for (int l = 0; l < model::kWarpSize; ++l)
      if (x.access.active(l)) a.push_back(x.access.address[static_cast<std::size_t>(l)]);
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    for (std::size_t i = 1; i < a.size(); ++i)
      if (a[i] != a[i - 1] + static_cast<std::uint64_t>(x.access.width)) return false;
  }
  return true;
}

// The C type of `lanes` elements of this instruction's type ("float", "float2", "uint4"), by
// size when the PTX type says only that.
std::string type_of(const GlobalInstruction& inst, std::uint64_t bytes, int lanes = 1) {
  if (inst.instruction != nullptr)
    if (std::string t = ptx_element_type(inst.instruction->type, lanes); !t.empty()) return t;
  return layout::element_type(bytes);
}

}  // namespace

std::string sass_mnemonic(const ptx::Instruction& inst) {
  const int bytes = ptx::type_bits(inst.type) / 8 * std::max<int>(1, inst.vec);
  const bool shared = inst.space == ptx::Space::Shared;
  std::string width = bytes == 8 ? ".64" : bytes == 16 ? ".128" : bytes == 1 ? (ptx::is_signed(inst.type) ? ".S8" : ".U8")
                      : bytes == 2 ? (ptx::is_signed(inst.type) ? ".S16" : ".U16") : "";
  switch (inst.opcode) {
    case ptx::Opcode::Ld: return (shared ? "LDS" : "LDG.E") + width;
    case ptx::Opcode::St: return (shared ? "STS" : "STG.E") + width;
    case ptx::Opcode::Atom: return shared ? "ATOMS" : "ATOMG.E";
    case ptx::Opcode::Red: return shared ? "ATOMS" : "RED.E";
    default: return "";
  }
}

std::string instruction_name(const ptx::Module& module, const ptx::Instruction& inst) {
  const std::string sass = sass_mnemonic(inst);
  return inst.text + " at " + ptx::source_position(module, inst) + (sass.empty() ? "" : " (SASS " + sass + ")");
}

bool staged_through_shared(const ptx::Module& module, const ptx::Instruction& load) {
  if (load.opcode != ptx::Opcode::Ld) return false;
  for (const ptx::Function& f : module.functions) {
    if (f.body.empty() || &load < &f.body.front() || &load > &f.body.back()) continue;
    std::vector<std::uint32_t> tracked;  // registers holding the loaded values
    auto add = [&](const ptx::Operand& o) {
      // Operand::reg holds 4 (longer vectors, tensor fragments, keep the rest elsewhere).
      const int n = o.kind == ptx::OperandKind::Vec ? std::min<int>(o.count, 4) : o.kind == ptx::OperandKind::Reg ? 1 : 0;
      for (int i = 0; i < n; ++i)
        if (o.reg[static_cast<std::size_t>(i)] != ptx::kNoReg) tracked.push_back(o.reg[static_cast<std::size_t>(i)]);
    };
    auto uses = [&](const ptx::Operand& o) {
      // Operand::reg holds 4 (longer vectors, tensor fragments, keep the rest elsewhere).
      const int n = o.kind == ptx::OperandKind::Vec ? std::min<int>(o.count, 4) : o.kind == ptx::OperandKind::Reg ? 1 : 0;
      for (int i = 0; i < n; ++i)
        if (std::find(tracked.begin(), tracked.end(), o.reg[static_cast<std::size_t>(i)]) != tracked.end()) return true;
      return false;
    };
    add(load.op(0));
    const std::size_t at = static_cast<std::size_t>(&load - &f.body.front());
    for (std::size_t i = at + 1; i < f.body.size() && i < at + 64 && !tracked.empty(); ++i) {
      const ptx::Instruction& x = f.body[i];
      if (x.opcode == ptx::Opcode::St && x.space == ptx::Space::Shared && x.num_operands > 1 && uses(x.op(1))) return true;
      if ((x.opcode == ptx::Opcode::Mov || x.opcode == ptx::Opcode::Cvt) && x.num_operands > 1 && uses(x.op(1)))
        add(x.op(0));
    }
    return false;
  }
  return false;
}

GlobalPrice price_accesses(const model::Arch& arch, const std::vector<model::WarpAccess>& accesses) {
  GlobalPrice p;
  for (const model::WarpAccess& a : accesses) {
    const model::GlobalCost c = model::price_global(arch, a);
    p.sectors += static_cast<std::uint64_t>(c.sectors);
    p.requests += static_cast<std::uint64_t>(c.requests);
    p.ideal += static_cast<std::uint64_t>(c.ideal_sectors);
  }
  return p;
}

GlobalPrice price_instruction(const model::Arch& arch, const GlobalInstruction& inst) {
  return price_accesses(arch, accesses_of(inst));
}

std::optional<GlobalChange> soa_change(const model::Arch& arch, const GlobalInstruction& inst,
                                       const std::vector<emu::Region>& regions) {
  if (inst.executions.empty()) return std::nullopt;
  const auto width = static_cast<std::uint64_t>(inst.executions.front().access.width);
  std::optional<std::uint64_t> stride;
  for (const GlobalExecution& x : inst.executions) {
    if (x.region < 0 || static_cast<std::size_t>(x.region) >= regions.size()) return std::nullopt;
    const auto s = lane_stride(x.access);
    if (!s) {
      if (__builtin_popcount(x.access.mask) > 1) return std::nullopt;  // not one struct array
      continue;
    }
    if (stride && *stride != *s) return std::nullopt;
    stride = s;
  }
  if (!stride || *stride <= width || *stride > kMaxStruct || *stride % width != 0) return std::nullopt;
  const std::uint64_t S = *stride;
  std::vector<model::WarpAccess> moved;
  std::set<std::uint64_t> fields;
  for (const GlobalExecution& x : inst.executions) {
    const emu::Region& r = regions[static_cast<std::size_t>(x.region)];
    const std::uint64_t padded_count = round_up((r.size + S - 1) / S, 256);
    model::WarpAccess a = x.access;
    for (int l = 0; l < model::kWarpSize; ++l) {
      if (!a.active(l)) continue;
      const std::uint64_t o = a.address[static_cast<std::size_t>(l)] - r.base;
      fields.insert(o % S);
      a.address[static_cast<std::size_t>(l)] = r.base + o % S * padded_count + o / S * width;
    }
    moved.push_back(a);
  }
  GlobalChange c{"AoS to SoA", price_instruction(arch, inst), price_accesses(arch, moved), "",
                 GlobalRewrite{GlobalRewrite::Kind::SoA, {}, S, 1, false}};
  std::string at;
  for (std::uint64_t f : fields) at += (at.empty() ? "+" : ", +") + num(f);
  c.detail = "lanes " + num(S) + " B apart: an array of " + num(S) + "-byte structs accessed at field offset " + at +
             "; give each field its own array (" + type_of(inst, width) + " field[n], element i at i * " +
             num(width) + ")";
  return if_saves(std::move(c));
}

std::optional<GlobalChange> align_change(const model::Arch& arch, const GlobalInstruction& inst) {
  const auto sector = static_cast<std::uint64_t>(arch.sector_bytes);
  std::vector<model::WarpAccess> moved;
  std::map<std::uint64_t, std::uint64_t> shifts;  // bytes past the sector -> executions
  for (const GlobalExecution& x : inst.executions) {
    model::WarpAccess a = x.access;
    const auto s = lane_stride(a);
    if (s && *s == static_cast<std::uint64_t>(a.width)) {
      std::uint64_t lo = ~0ull;
      for (int l = 0; l < model::kWarpSize; ++l)
        if (a.active(l)) lo = std::min(lo, a.address[static_cast<std::size_t>(l)]);
      if (const std::uint64_t d = lo % sector; d != 0) {
        ++shifts[d];
        for (int l = 0; l < model::kWarpSize; ++l)
          if (a.active(l)) a.address[static_cast<std::size_t>(l)] -= d;
      }
    }
    moved.push_back(a);
  }
  if (shifts.empty()) return std::nullopt;
  const auto common = std::max_element(shifts.begin(), shifts.end(),
                                       [](const auto& a, const auto& b) { return a.second < b.second; });
  std::uint64_t misaligned = 0;
  for (const auto& [d, n] : shifts) misaligned += n;
  GlobalChange c{"align the base", price_instruction(arch, inst), price_accesses(arch, moved), "",
                 GlobalRewrite{GlobalRewrite::Kind::Align, {}, 0, 1, false}};
  c.detail = num(misaligned) + " of " + num(inst.executions.size()) +
             " warp accesses are contiguous but start past a 32-byte sector (most often by " + num(common->first) +
             " B): start each warp's run on a 32-byte (better 128-byte) boundary, e.g. align the buffer or the index "
             "offset";
  return if_saves(std::move(c));
}

std::optional<GlobalChange> staging_change(const model::Arch& arch, const GlobalInstruction& inst) {
  if (inst.executions.empty()) return std::nullopt;
  const int width = inst.executions.front().access.width;
  const auto w = static_cast<std::uint64_t>(width);
  std::map<std::uint64_t, std::vector<std::uint64_t>> by_block;  // block -> element addresses
  for (const GlobalExecution& x : inst.executions) {
    if (x.access.width != width) return std::nullopt;
    auto& v = by_block[x.block];
    for (int l = 0; l < model::kWarpSize; ++l)
      if (x.access.active(l)) v.push_back(x.access.address[static_cast<std::size_t>(l)]);
  }
  // Two ways to issue a block's distinct elements: each run (row) by its own warps, or the
  // elements in address order 32 to a warp (short rows share a warp, as a 2-D block does).
  // The cheaper in sectors, then requests.
  const model::MemOp op = inst.executions.front().access.op;
  auto warp_of = [&](const std::vector<std::uint64_t>& v, std::size_t from, std::size_t to) {
    model::WarpAccess a;
    a.op = op;
    a.width = width;
    a.mask = 0;
    for (std::size_t lane = 0; lane < model::kWarpSize && from + lane < to; ++lane) {
      a.mask |= 1u << lane;
      a.address[lane] = v[from + lane];
    }
    return a;
  };
  std::vector<model::WarpAccess> rows, packed;
  std::uint64_t max_runs = 0, max_run = 0;
  for (auto& [block, v] : by_block) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
    std::uint64_t runs = 0;
    for (std::size_t i = 0; i < v.size();) {
      std::size_t j = i + 1;
      while (j < v.size() && v[j] == v[j - 1] + w) ++j;  // one contiguous run: v[i..j)
      ++runs;
      max_run = std::max<std::uint64_t>(max_run, j - i);
      for (std::size_t k = i; k < j; k += model::kWarpSize) rows.push_back(warp_of(v, k, j));
      i = j;
    }
    for (std::size_t k = 0; k < v.size(); k += model::kWarpSize) packed.push_back(warp_of(v, k, v.size()));
    max_runs = std::max(max_runs, runs);
  }
  const GlobalPrice by_rows = price_accesses(arch, rows), by_order = price_accesses(arch, packed);
  const bool pack = std::tie(by_order.sectors, by_order.requests) < std::tie(by_rows.sectors, by_rows.requests);
  GlobalChange c{"stage through shared memory", price_instruction(arch, inst), pack ? by_order : by_rows, "",
                 GlobalRewrite{GlobalRewrite::Kind::Stage, {}, 0, 1, pack}};
  if (c.after.sectors >= c.before.sectors || max_run < 2) return std::nullopt;
  // The tile: a row per run. Its column side (lane r at row r) is where conflicts come from.
  const std::string type = type_of(inst, w);
  auto column_cost = [&](std::uint64_t pitch_elements) {
    model::WarpAccess col;
    col.op = model::MemOp::SharedLoad;
    col.width = width;
    col.mask = 0;
    for (std::uint64_t r = 0; r < std::min<std::uint64_t>(max_runs, model::kWarpSize); ++r) {
      col.mask |= 1u << r;
      col.address[r] = r * pitch_elements * w;
    }
    const model::AccessCost cost = model::price_valid(arch, col);
    return cost.shared ? std::pair{cost.shared->wavefronts, cost.shared->ideal_wavefronts} : std::pair{0, 0};
  };
  const auto [plain, ideal] = column_cost(max_run);
  const int padded = column_cost(max_run + 1).first;
  c.detail = "a block's accesses cover " + num(max_runs) + " rows of up to " + num(max_run) + " x " + num(w) +
             " B: stage them in __shared__ " + type + " tile[" + num(max_runs) + "][" + num(max_run) +
             (pack ? "] and let each warp move the next 32 elements in address order"
                   : "] and let each warp move whole rows") +
             "; the tile's column side costs " + std::to_string(plain) +
             " wavefronts per warp (ideal " + std::to_string(ideal) + ") as declared, " + std::to_string(padded) +
             " padded to tile[" + num(max_runs) + "][" + num(max_run + 1) + "]";
  return c;
}

std::optional<GlobalChange> widening_change(const model::Arch& arch, const GlobalInstruction& inst,
                                            const std::vector<GlobalInstruction>& all, const ptx::Module* module) {
  auto name = [module](const GlobalInstruction& g) {
    if (module != nullptr && g.instruction != nullptr) return instruction_name(*module, *g.instruction);
    return g.instruction != nullptr ? g.instruction->text + " (PTX line " + std::to_string(g.instruction->ptx_line) + ")"
                                    : "instruction " + std::to_string(g.pc);
  };
  if (inst.executions.empty()) return std::nullopt;
  const model::WarpAccess& first = inst.executions.front().access;
  if (first.op != model::MemOp::GlobalLoad && first.op != model::MemOp::GlobalStore) return std::nullopt;
  const int width = first.width;
  for (const GlobalExecution& x : inst.executions)
    if (x.access.width != width || x.access.op != first.op) return std::nullopt;
  using Key = std::tuple<std::uint64_t, int, std::uint32_t>;
  auto index = [](const GlobalInstruction& g) {
    std::map<Key, const GlobalExecution*> m;
    for (const GlobalExecution& x : g.executions) m[{x.block, x.warp, x.seq}] = &x;
    return m;
  };
  // Does `partner` hold, for every leading execution (seq % step == 0 when partner is inst
  // itself), the execution `seq_offset` later whose lanes sit `bytes` further on?
  auto matches = [&](const std::map<Key, const GlobalExecution*>& partner, std::uint32_t seq_step,
                     std::uint32_t seq_offset, std::uint64_t bytes) {
    for (const GlobalExecution& x : inst.executions) {
      if (x.seq % seq_step != 0) continue;
      auto it = partner.find({x.block, x.warp, x.seq + seq_offset});
      if (it == partner.end() || it->second->access.mask != x.access.mask) return false;
      for (int l = 0; l < model::kWarpSize; ++l)
        if (x.access.active(l) &&
            it->second->access.address[static_cast<std::size_t>(l)] != x.access.address[static_cast<std::size_t>(l)] + bytes)
          return false;
    }
    return true;
  };
  auto aligned = [&](std::uint64_t bytes, std::uint32_t seq_step) {
    for (const GlobalExecution& x : inst.executions)
      if (x.seq % seq_step == 0)
        for (int l = 0; l < model::kWarpSize; ++l)
          if (x.access.active(l) && x.access.address[static_cast<std::size_t>(l)] % bytes != 0) return false;
    return true;
  };
  // The partner's execution matching this instruction's first, `bytes` further in every lane.
  auto first_matches = [&](const GlobalInstruction& g, std::uint64_t bytes) {
    const GlobalExecution& x = inst.executions.front();
    for (const GlobalExecution& y : g.executions)
      if (y.block == x.block && y.warp == x.warp && y.seq == x.seq) {
        if (y.access.mask != x.access.mask) return false;
        for (int l = 0; l < model::kWarpSize; ++l)
          if (x.access.active(l) &&
              y.access.address[static_cast<std::size_t>(l)] != x.access.address[static_cast<std::size_t>(l)] + bytes)
            return false;
        return true;
      }
    return false;
  };
  const auto w = static_cast<std::uint64_t>(width);
  std::optional<GlobalChange> best;
  for (const std::uint32_t k : {4u, 2u}) {
    if (k * w > 16) continue;
    // (a) other instructions whose k-th executions sit at +w, +2w, ... in every lane.
    std::vector<const GlobalInstruction*> partners;
    bool found = aligned(k * w, 1);
    for (std::uint32_t j = 1; found && j < k; ++j) {
      const GlobalInstruction* hit = nullptr;
      for (const GlobalInstruction& g : all) {
        if (g.pc == inst.pc || g.executions.size() != inst.executions.size() || g.executions.empty() ||
            g.executions.front().access.op != first.op || g.executions.front().access.width != width)
          continue;
        if (std::find(partners.begin(), partners.end(), &g) != partners.end()) continue;
        if (!first_matches(g, j * w)) continue;  // cheap: one execution, before indexing them all
        if (matches(index(g), 1, 0, j * w)) {
          hit = &g;
          break;
        }
      }
      if (hit == nullptr) found = false;
      else partners.push_back(hit);
    }
    std::vector<model::WarpAccess> widened, replaced = accesses_of(inst);
    std::string detail;
    if (found) {
      for (const GlobalExecution& x : inst.executions) {
        model::WarpAccess a = x.access;
        a.width = static_cast<int>(k * w);
        widened.push_back(a);
      }
      std::string list = name(inst);
      for (const GlobalInstruction* g : partners) {
        const auto more = accesses_of(*g);
        replaced.insert(replaced.end(), more.begin(), more.end());
        list += (g == partners.back() ? " and " : ", ") + name(*g);
      }
      detail = "each lane's " + num(w) + "-byte accesses of " + list + " are adjacent and " + num(k * w) +
               "-byte aligned in every warp: one " + num(k * w) + "-byte access (" +
               type_of(inst, k * w, static_cast<int>(k)) + ") per lane";
    } else {
      // (b) this instruction's own next k - 1 loop iterations.
      const auto self = index(inst);
      bool loop = aligned(k * w, k);
      for (std::uint32_t j = 1; loop && j < k; ++j) loop = matches(self, k, j, j * w);
      std::uint64_t leading = 0;
      for (const GlobalExecution& x : inst.executions) leading += x.seq % k == 0;
      if (!loop || leading * k != inst.executions.size()) continue;
      for (const GlobalExecution& x : inst.executions) {
        if (x.seq % k != 0) continue;
        model::WarpAccess a = x.access;
        a.width = static_cast<int>(k * w);
        widened.push_back(a);
      }
      detail = "each lane's next " + num(k - 1) + " loop iteration(s) of this instruction touch the adjacent " + num(w) +
               "-byte element(s): unroll by " + num(k) + " with one " + num(k * w) + "-byte access (" +
               type_of(inst, k * w, static_cast<int>(k)) + ") per lane";
    }
    GlobalRewrite rewrite{found ? GlobalRewrite::Kind::Widen : GlobalRewrite::Kind::WidenLoop, {inst.pc}, 0,
                          static_cast<int>(k), false};
    for (const GlobalInstruction* g : partners) rewrite.pcs.push_back(g->pc);
    GlobalChange c{"widen to " + num(k * w) + "-byte accesses", price_accesses(arch, replaced),
                   price_accesses(arch, widened), detail, rewrite};
    if (c.after.sectors <= c.before.sectors && c.after.requests < c.before.requests) {
      best = std::move(c);
      break;  // the widest that applies
    }
  }
  return best;
}

std::vector<GlobalAdvice> advise_global(const model::Arch& arch, const ptx::Module& module,
                                        const std::vector<GlobalInstruction>& instructions,
                                        const std::vector<emu::Region>& regions, double scale,
                                        const GlobalAdviceOptions& options) {
  // One group per source line, operation and width: a loop the compiler unrolled is one line
  // of several instructions, and staging takes the whole line's accesses of a block.
  std::map<std::tuple<int, int, int, int, std::uint32_t>, std::vector<const GlobalInstruction*>> groups;
  for (const GlobalInstruction& inst : instructions) {
    if (inst.executions.empty()) continue;
    const model::WarpAccess& a = inst.executions.front().access;
    std::tuple<int, int, int, int, std::uint32_t> key{0, 0, static_cast<int>(a.op), a.width, inst.pc};
    const ptx::SourceLoc loc =
        inst.instruction != nullptr ? ptx::user_loc(module, inst.instruction->debug) : ptx::SourceLoc{};
    if (loc.known()) key = {loc.file, loc.line, static_cast<int>(a.op), a.width, 0};
    groups[key].push_back(&inst);
  }
  std::vector<GlobalAdvice> out;
  for (const auto& [key, members] : groups) {
    GlobalInstruction line{members.front()->pc, members.front()->instruction, {}};
    for (const GlobalInstruction* m : members)
      line.executions.insert(line.executions.end(), m->executions.begin(), m->executions.end());
    const GlobalPrice before = price_instruction(arch, line);
    if (before.sectors <= before.ideal) continue;
    GlobalAdvice a;
    a.pc = line.pc;
    for (const GlobalInstruction* m : members) a.pcs.push_back(m->pc);
    if (line.instruction != nullptr) {
      a.instruction = line.instruction->text;
      a.sass = sass_mnemonic(*line.instruction);
      const ptx::SourceLoc loc = ptx::user_loc(module, line.instruction->debug);
      if (loc.known()) {
        auto it = module.files.find(loc.file);
        a.file = it == module.files.end() ? std::string() : it->second;
        a.line = loc.line;
        a.column = loc.column;
      } else {
        a.line = line.instruction->ptx_line;
      }
    }
    a.before = scaled(before, scale);
    // Staging is advice only where the line is not staged already, and where regrouping can
    // help: a warp's one contiguous run costs extra sectors only at its edges, which only
    // alignment moves.
    bool staged = false;
    for (const GlobalInstruction* m : members)
      staged = staged || (m->instruction != nullptr && staged_through_shared(module, *m->instruction));
    const bool runs = std::all_of(members.begin(), members.end(), [](const GlobalInstruction* m) { return one_run_per_warp(*m); });
    std::vector<std::optional<GlobalChange>> changes{soa_change(arch, line, regions), align_change(arch, line)};
    if (!staged && !runs) changes.push_back(staging_change(arch, line));
    if (staged) a.note = "already staged through shared memory (its values are stored there): no staging to add";
    else if (runs) a.note = "each warp's access is one contiguous run: staging cannot help, its extra sectors are where the run starts and ends";
    for (const GlobalInstruction* m : members) changes.push_back(widening_change(arch, *m, instructions, &module));
    const std::uint64_t gain = std::max<std::uint64_t>(
        1, static_cast<std::uint64_t>(std::ceil(static_cast<double>(a.before.sectors) * std::max(0.0, options.min_gain))));
    for (auto& change : changes)
      if (change) {
        change->before = scaled(change->before, scale);
        change->after = scaled(change->after, scale);
        if (change->rewrite.pcs.empty()) change->rewrite.pcs = a.pcs;  // the whole line
        if (change->saved() < gain && change->after.requests >= change->before.requests) continue;  // not worth it
        a.suggestions.push_back(std::move(*change));
      }
    std::stable_sort(a.suggestions.begin(), a.suggestions.end(),
                     [](const GlobalChange& x, const GlobalChange& y) { return x.saved() > y.saved(); });
    out.push_back(std::move(a));
  }
  std::stable_sort(out.begin(), out.end(), [](const GlobalAdvice& x, const GlobalAdvice& y) {
    return x.before.sectors - x.before.ideal > y.before.sectors - y.before.ideal;
  });
  return out;
}

}  // namespace warpscope::analysis
