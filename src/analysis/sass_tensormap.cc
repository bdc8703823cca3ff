// sass_tensormap.cc: tensor maps built on the device, as the SASS runs them.
//
// Triton's tl.make_tensor_descriptor (and CUTLASS's device-side map updates) zero 128 bytes of
// shared memory, fill them with tensormap.replace.tile.<field>, and copy them to global memory
// with tensormap.cp_fenceproxy. ptxas writes (H200, batch 3: corpus/hopper tma_device_map,
// Triton's tma_add_device and tma_softmax; Source page per SASS instruction):
//
//   PTX                                                   SASS (one lane each)
//   tensormap.replace.tile.global_address...b64 [m], a    LDS [UR4+0x8]; STS.64 [UR4]; STS [UR4+0x8]
//   tensormap.replace.tile.box_dim...b32 [m], 0, %r2      LDS [UR4+0x34]; STS [UR4+0x34]
//   tensormap.replace.tile.global_dim...b32 [m], 1, %r6   STS [UR4+0x24]
//   ...                                                   (constants folded: fewer words)
//   tensormap.cp_fenceproxy.global.shared::cta... [g], [m], 128
//                                                         LDS R11, [R10+UR4]  (word l a lane)
//                                                         ATOMG.E.EXCH.STRONG.GPU PT, RZ, [R8], R11
//                                                         UTMACCTL.IV [UR6]
//
// Each word load or store is one wavefront (one lane, or all lanes on one address) for every
// warp that runs the replace with a lane active (ptxas hoists some out of the branch: then all
// warps execute it, and only the one with the lane counts). ncu counts the copy's LDS as a
// shared load (1 wavefront) and its ATOMG as op_atom (1 request, 4 sectors). How many words a
// field takes depends on what ptxas folded (constants, fields sharing a word), so the words are
// read from the listing: the loads and stores no PTX access explains, at the lines of the
// replaces, go to the replace at that line nearest in program order.
#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/sass_match.h"
#include "ptx/async_variant.h"

namespace warpscope::analysis {

InstructionPlan predicted_map_words(const ptx::Instruction& inst) {
  InstructionPlan r;
  r.action = InstructionPlan::Action::Words;
  const int width = ptx::type_bits(inst.type) == 64 ? 8 : 4;
  r.words = {{false, 4, 0}, {true, width, 0}};
  return r;
}

namespace detail {

namespace {

// The register a SASS operand list names first ("R11, [R10+UR4]" -> "R11"), and last
// ("PT, RZ, [R8], R11" -> "R11").
std::string first_operand(const std::string& ops) {
  const std::size_t start = ops.find_first_not_of(' ');
  if (start == std::string::npos) return {};
  return ops.substr(start, ops.find_first_of(", ", start) - start);
}
std::string last_operand(const std::string& ops) {
  std::size_t start = ops.find_last_of(", ");
  std::string s = start == std::string::npos ? ops : ops.substr(start + 1);
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

void mark(std::vector<bool>& v, std::size_t i) {
  if (v.size() <= i) v.resize(i + 1, false);
  v[i] = true;
}

bool is_set(const std::vector<bool>& v, std::size_t i) { return i < v.size() && v[i]; }

}  // namespace

void match_tensormap_copies(const std::vector<const ptx::Function*>& functions, const sass::SassFunction& sass,
                            std::vector<bool>& taken, std::vector<bool>& claimed, SassPlan& plan) {
  std::vector<const ptx::Instruction*> copies;
  for (const ptx::Function* f : functions)
    for (const ptx::Instruction& inst : f->body)
      if (inst.opcode == ptx::Opcode::TensormapCpFenceproxy) copies.push_back(&inst);
  if (copies.empty()) return;
  // The copies' SASS: an ATOMG/ATOM exch followed by UTMACCTL, and the LDS that loaded its data.
  struct Copy {
    int lds = -1;    // memory_ops index
    int atomg = -1;  // memory_ops index
  };
  std::vector<Copy> found;
  for (std::size_t m = 0; m < sass.memory_ops.size(); ++m) {
    const sass::SassMemoryOp& op = sass.memory_ops[m];
    if ((op.kind != sass::Kind::GlobalAtomic && op.kind != sass::Kind::GenericAtomic) || op.atomic != sass::AtomicOp::Exch ||
        is_set(taken, m))
      continue;
    const auto at = static_cast<std::size_t>(op.instruction);
    bool fenced = false;
    for (std::size_t i = at + 1; i < sass.instructions.size() && i <= at + 4; ++i)
      fenced = fenced || sass.instructions[i].opcode.rfind("UTMACCTL", 0) == 0;
    if (!fenced) continue;
    const std::string data = last_operand(sass.instructions[at].operands);
    Copy c;
    c.atomg = static_cast<int>(m);
    for (std::size_t k = m; k-- > 0 && k + 32 > m;) {
      const sass::SassMemoryOp& l = sass.memory_ops[k];
      if (l.kind == sass::Kind::SharedLoad && !is_set(taken, k) &&
          first_operand(sass.instructions[static_cast<std::size_t>(l.instruction)].operands) == data) {
        c.lds = static_cast<int>(k);
        break;
      }
    }
    found.push_back(c);
  }
  for (std::size_t k = 0; k < copies.size() && k < found.size(); ++k) {
    std::vector<int> at;
    for (int m : {found[k].lds, found[k].atomg}) {
      if (m < 0) continue;
      mark(taken, static_cast<std::size_t>(m));
      const int i = sass.memory_ops[static_cast<std::size_t>(m)].instruction;
      mark(claimed, static_cast<std::size_t>(i));
      at.push_back(i);
    }
    if (sass.has_rows) plan.source_lines[copies[k]] = line_shares(sass, at);
  }
}

void match_tensormap_fields(const ptx::Module& module, const std::vector<const ptx::Function*>& functions,
                            const sass::SassFunction& sass, std::vector<bool>& taken, std::vector<bool>& claimed,
                            SassPlan& plan) {
  struct Replace {
    const ptx::Instruction* inst;
    LineKey line;
    double position;
    bool global;
    std::vector<int> sass;  // its words' instructions
  };
  std::vector<Replace> replaces;
  std::size_t total = 0;
  for (const ptx::Function* f : functions) total += f->body.size();
  std::size_t order = 0;
  for (const ptx::Function* f : functions)
    for (const ptx::Instruction& inst : f->body) {
      ++order;
      if (inst.opcode != ptx::Opcode::TensormapReplace) continue;
      replaces.push_back({&inst, line_of(module, inst).loose(), total > 1 ? static_cast<double>(order - 1) / static_cast<double>(total - 1) : 0.0,
                          inst.space == ptx::Space::Global, {}});
    }
  if (replaces.empty()) return;
  std::set<LineKey> lines;
  for (const Replace& r : replaces) lines.insert(r.line);
  const std::size_t n = sass.instructions.size();
  bool any = false;
  for (std::size_t m = 0; m < sass.memory_ops.size(); ++m) {
    const sass::SassMemoryOp& op = sass.memory_ops[m];
    const bool shared = op.kind == sass::Kind::SharedLoad || op.kind == sass::Kind::SharedStore;
    const bool global = op.kind == sass::Kind::GlobalLoad || op.kind == sass::Kind::GlobalStore;
    if ((!shared && !global) || op.guard.never() || is_set(taken, m)) continue;
    const sass::SassInstruction& s = sass.instructions[static_cast<std::size_t>(op.instruction)];
    const LineKey key = line_of(s).loose();
    if (!lines.count(key)) continue;
    const double pos = n > 1 ? static_cast<double>(op.instruction) / static_cast<double>(n - 1) : 0.0;
    Replace* best = nullptr;
    for (Replace& r : replaces)
      if (r.line == key && r.global == global && (best == nullptr || std::abs(r.position - pos) < std::abs(best->position - pos)))
        best = &r;
    if (best == nullptr) continue;
    InstructionPlan& role = plan.roles[best->inst];
    role.action = InstructionPlan::Action::Words;
    const int offset = static_cast<int>(((op.address.imm % 128) + 128) % 128) / op.width * op.width;
    role.words.push_back({sass::is_store(op.kind), op.width, offset});
    best->sass.push_back(op.instruction);
    mark(taken, m);
    mark(claimed, static_cast<std::size_t>(op.instruction));
    ++plan.map_words;
    any = true;
  }
  if (!any) return;  // no words at the replaces' lines (no line information): predicted per replace
  for (Replace& r : replaces) {
    InstructionPlan& role = plan.roles[r.inst];
    role.action = InstructionPlan::Action::Words;  // none: folded into another field's words
    if (!r.sass.empty() && sass.has_rows) plan.source_lines[r.inst] = line_shares(sass, r.sass);
  }
}

}  // namespace detail
}  // namespace warpscope::analysis
