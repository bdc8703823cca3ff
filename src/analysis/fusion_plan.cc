// fusion_plan.cc: finding the PTX groups behind ptxas's vector loads and stores.
#include "analysis/fusion_plan.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "emu/mma_fragments.h"
#include "emu/wmma_plan.h"

namespace warpscope::analysis {

namespace {

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The memory kind and bytes per lane of a plain ld/st in shared or global space.
bool scalar_access(const ptx::Instruction& inst, sass::Kind& kind, int& width, const ptx::Operand*& addr) {
  const bool load = inst.opcode == ptx::Opcode::Ld;
  if (!load && inst.opcode != ptx::Opcode::St) return false;
  if (inst.space == ptx::Space::Shared) kind = load ? sass::Kind::SharedLoad : sass::Kind::SharedStore;
  else if (inst.space == ptx::Space::Global) kind = load ? sass::Kind::GlobalLoad : sass::Kind::GlobalStore;
  else return false;
  width = ptx::type_bits(inst.type) / 8 * inst.vec;
  addr = &inst.op(load ? 1 : 0);
  return addr->kind == ptx::OperandKind::Addr && width > 0;
}

using LineKey = std::tuple<std::string, int, sass::Kind>;

// The vector accesses (8 bytes per lane or more) ptxas makes of a wmma.load/store, by width:
// they are in the SASS's wide instructions of its line, and no merge of scalar accesses.
std::map<int, int> wmma_wide_accesses(const ptx::Instruction& inst) {
  std::map<int, int> widths;
  const ptx::TensorInfo& t = inst.tensor;
  const emu::MatrixOperand which = t.fragment == ptx::Fragment::A   ? emu::MatrixOperand::A
                                   : t.fragment == ptx::Fragment::B ? emu::MatrixOperand::B
                                                                    : emu::MatrixOperand::C;
  auto layout = emu::wmma_layout(t.m, t.n, t.k, t.type(0), which);
  if (!layout) return widths;
  const emu::WmmaPlan plan = emu::plan_wmma(*layout, which, t.layout_a != ptx::MatrixLayout::Col, inst.space == ptx::Space::Shared);
  for (const emu::WmmaAccess& a : plan.accesses)
    if (!a.ldmatrix && a.width >= 8) ++widths[a.width];
  return widths;
}

}  // namespace

bool has_merge_candidates(const ptx::Module& module) {
  for (const ptx::Function& f : module.functions) {
    std::vector<std::tuple<sass::Kind, int, std::uint32_t, std::int32_t, std::int64_t>> seen;
    for (const ptx::Instruction& inst : f.body) {
      sass::Kind kind;
      int width;
      const ptx::Operand* addr;
      if (!scalar_access(inst, kind, width, addr) || width > 8) continue;
      const auto key = std::make_tuple(kind, width, addr->reg[0], addr->symbol, addr->imm);
      const std::size_t from = seen.size() > 96 ? seen.size() - 96 : 0;  // the planner's window
      for (std::size_t i = from; i < seen.size(); ++i) {
        const auto& [k, w, reg, sym, imm] = seen[i];
        if (k == kind && w == width && reg == addr->reg[0] && sym == addr->symbol &&
            (imm - addr->imm == width || addr->imm - imm == width) && std::min(imm, addr->imm) % (2 * width) == 0)
          return true;
      }
      seen.push_back(key);
    }
  }
  return false;
}

FusionPlan plan_fusions(const ptx::Module& module, const std::vector<sass::SassFunction>& sass) {
  FusionPlan plan;
  for (const sass::SassFunction& sf : sass) {
    const int fi = module.find_function(sf.name);
    if (fi < 0) continue;
    const ptx::Function& f = module.functions[static_cast<std::size_t>(fi)];
    // Wide instructions per (file, line, kind, width): the SASS's, less those already wide in PTX.
    std::map<std::pair<LineKey, int>, int> missing;
    for (const sass::SassMemoryOp& op : sf.memory_ops)
      if (op.kind != sass::Kind::Other && op.width >= 8) ++missing[{{base_name(op.file), op.line, op.kind}, op.width}];
    struct Access {
      const ptx::Instruction* inst;
      sass::Kind kind;
      int width;
      const ptx::Operand* addr;
      std::string file;
    };
    std::vector<Access> accesses;  // program order
    for (const ptx::Instruction& inst : f.body) {
      if ((inst.opcode == ptx::Opcode::WmmaLoad || inst.opcode == ptx::Opcode::WmmaStore) &&
          (inst.space == ptx::Space::Shared || inst.space == ptx::Space::Global)) {
        auto file = module.files.find(inst.debug.loc.file);
        if (file == module.files.end()) continue;
        const bool load = inst.opcode == ptx::Opcode::WmmaLoad, shared = inst.space == ptx::Space::Shared;
        const sass::Kind kind = shared ? (load ? sass::Kind::SharedLoad : sass::Kind::SharedStore)
                                       : (load ? sass::Kind::GlobalLoad : sass::Kind::GlobalStore);
        for (const auto& [width, n] : wmma_wide_accesses(inst)) {
          auto it = missing.find({{base_name(file->second), inst.debug.loc.line, kind}, width});
          if (it != missing.end()) it->second -= n;
        }
        continue;
      }
      Access a{&inst, sass::Kind::Other, 0, nullptr, {}};
      if (!scalar_access(inst, a.kind, a.width, a.addr)) continue;
      auto file = module.files.find(inst.debug.loc.file);
      if (file == module.files.end()) continue;
      a.file = base_name(file->second);
      auto it = missing.find({{a.file, inst.debug.loc.line, a.kind}, a.width});
      if (it != missing.end()) --it->second;
      accesses.push_back(std::move(a));
    }
    // Widest first: a group is `merged / w` accesses of one kind off one base register (and
    // symbol) whose offsets fill an aligned block, each taken nearest the lowest one in
    // program order. ptxas places a merged load at its first part and a merged store at its
    // last, so that part's line must be one whose SASS has a merge left to explain.
    constexpr std::size_t kWindow = 96;
    for (int merged : {16, 8}) {
      for (std::size_t i = 0; i < accesses.size(); ++i) {
        const Access& head = accesses[i];
        if (plan.role(head.inst) || merged % head.width != 0 || head.addr->imm % merged != 0) continue;
        const int parts = merged / head.width;
        if (parts < 2 || parts > 4) continue;
        std::vector<std::size_t> group(static_cast<std::size_t>(parts), accesses.size());
        group[0] = i;
        int found = 1;
        for (std::size_t d = 1; d <= kWindow && found < parts; ++d)
          for (std::size_t j : {i + d, i >= d ? i - d : accesses.size()}) {
            if (j >= accesses.size()) continue;
            const Access& o = accesses[j];
            if (plan.role(o.inst) || o.kind != head.kind || o.width != head.width || o.addr->reg[0] != head.addr->reg[0] ||
                o.addr->symbol != head.addr->symbol)
              continue;
            const std::int64_t delta = o.addr->imm - head.addr->imm;
            if (delta <= 0 || delta % head.width != 0 || delta / head.width >= parts) continue;
            auto& slot = group[static_cast<std::size_t>(delta / head.width)];
            if (slot != accesses.size()) continue;
            slot = j;
            ++found;
          }
        if (found != parts) continue;
        const bool load = head.kind == sass::Kind::SharedLoad || head.kind == sass::Kind::GlobalLoad;
        std::size_t anchor = group[0];
        for (std::size_t g : group) anchor = load ? std::min(anchor, g) : std::max(anchor, g);
        const Access& a = accesses[anchor];
        auto it = missing.find({{a.file, a.inst->debug.loc.line, head.kind}, merged});
        if (it == missing.end() || it->second <= 0) continue;
        --it->second;
        int anchor_index = 0;
        for (int p = 0; p < parts; ++p)
          if (group[static_cast<std::size_t>(p)] == anchor) anchor_index = p;
        for (int p = 0; p < parts; ++p)
          plan.roles[accesses[group[static_cast<std::size_t>(p)]].inst] = FusionRole{plan.groups, p, parts, merged, anchor_index};
        ++plan.groups;
      }
    }
  }
  return plan;
}

}  // namespace warpscope::analysis
