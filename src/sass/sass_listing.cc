// sass_listing.cc: reading nvdisasm -c -gi output.
#include "sass/sass_listing.h"

#include <algorithm>
#include <cctype>
#include <map>

namespace warpscope::sass {

std::string_view base_name(std::string_view path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

int SassFunction::loop_of(int i) const {
  int best = -1;
  for (std::size_t k = 0; k < loops.size(); ++k) {
    const SassLoop& l = loops[k];
    if (!l.contains(i)) continue;
    if (best < 0 || l.tail - l.head < loops[static_cast<std::size_t>(best)].tail - loops[static_cast<std::size_t>(best)].head)
      best = static_cast<int>(k);
  }
  return best;
}

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

int parse_int(std::string_view s) {
  int v = 0;
  for (std::size_t i = 0; i < s.size() && i < 9 && std::isdigit(static_cast<unsigned char>(s[i])); ++i)
    v = v * 10 + (s[i] - '0');
  return v;
}

// `"x.cu", line 26` at the front of s: the position, and s advanced past it.
bool parse_position(std::string_view& s, SassLoc& loc) {
  if (s.empty() || s.front() != '"') return false;
  const auto close = s.find('"', 1);
  if (close == std::string_view::npos) return false;
  loc.file = std::string(s.substr(1, close - 1));
  s.remove_prefix(close + 1);
  const auto comma = s.find(", line ");
  if (comma != 0) return false;
  s.remove_prefix(7);
  loc.line = parse_int(s);
  while (!s.empty() && std::isdigit(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  return true;
}

// One //## File directive: the position, and the call site when it says "inlined at".
struct Directive {
  SassLoc loc;
  SassLoc at;
  bool inlined = false;
};

bool parse_directive(std::string_view s, Directive& d) {
  s.remove_prefix(9);  // //## File
  s = trim(s);
  if (!parse_position(s, d.loc)) return false;
  s = trim(s);
  if (starts_with(s, "inlined at ")) {
    s.remove_prefix(11);
    d.inlined = parse_position(s, d.at);
  }
  return true;
}

// The innermost position and the call sites of a group of directives (see the header).
void apply_directives(const std::vector<Directive>& group, SassLoc& loc, std::vector<SassLoc>& chain) {
  chain.clear();
  auto first = std::find_if(group.begin(), group.end(), [](const Directive& d) { return d.inlined; });
  if (first == group.end()) {
    loc = group.back().loc;
    return;
  }
  loc = first->loc;
  for (auto it = first; it != group.end(); ++it)
    if (it->inlined) chain.push_back(it->at);
}

Guard parse_guard(std::string_view g) {  // "@!P0", "@PT", "@UP1"
  Guard guard;
  g.remove_prefix(1);
  if (!g.empty() && g.front() == '!') {
    guard.negated = true;
    g.remove_prefix(1);
  }
  if (!g.empty() && g.front() == 'U') {
    guard.uniform = true;
    g.remove_prefix(1);
  }
  if (g == "PT") guard.pred = 7;
  else if (g.size() == 2 && g[0] == 'P' && std::isdigit(static_cast<unsigned char>(g[1]))) guard.pred = g[1] - '0';
  return guard;
}

void split_mnemonic(SassInstruction& inst) {
  std::string_view m = inst.mnemonic;
  const auto dot = m.find('.');
  inst.opcode = std::string(m.substr(0, dot));
  while (dot != std::string_view::npos && !m.empty()) {
    m.remove_prefix(m.find('.') + 1);
    const auto next = m.find('.');
    inst.modifiers.emplace_back(m.substr(0, next));
    if (next == std::string_view::npos) break;
  }
}

// The label a branch names: "`(.L_x_1)" -> ".L_x_1"; an absolute "0x170" as text too.
std::string branch_label(std::string_view operands) {
  const auto open = operands.find("`(");
  if (open != std::string_view::npos) {
    const auto close = operands.find(')', open);
    if (close != std::string_view::npos) return std::string(operands.substr(open + 2, close - open - 2));
  }
  operands = trim(operands);
  if (starts_with(operands, "0x")) return std::string(operands.substr(0, operands.find_first_of(" ,")));
  return {};
}

bool is_branch(std::string_view opcode) { return opcode == "BRA" || opcode == "BRX" || opcode == "JMP"; }

struct FunctionBuilder {
  SassFunction f;
  std::map<std::string, int, std::less<>> labels;  // label -> the instruction that follows it
  std::vector<std::string> targets;                 // per instruction: its branch's label

  void finish() {
    std::map<std::uint32_t, int> by_offset;
    for (std::size_t i = 0; i < f.instructions.size(); ++i) by_offset[f.instructions[i].offset] = static_cast<int>(i);
    for (std::size_t i = 0; i < f.instructions.size(); ++i) {
      const std::string& t = targets[i];
      if (t.empty()) continue;
      int target = -1;
      if (auto it = labels.find(t); it != labels.end()) {
        target = it->second;
      } else if (starts_with(t, "0x")) {
        std::uint32_t off = 0;
        for (char c : t.substr(2)) off = off * 16 + static_cast<std::uint32_t>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c | 0x20) - 'a' + 10);
        if (auto o = by_offset.find(off); o != by_offset.end()) target = o->second;
      }
      if (target < 0 || target >= static_cast<int>(f.instructions.size())) continue;
      f.instructions[i].branch_target = target;
      if (target <= static_cast<int>(i) && !f.instructions[i].guard.never())
        f.loops.push_back({target, static_cast<int>(i)});
    }
    std::sort(f.loops.begin(), f.loops.end(), [](const SassLoop& a, const SassLoop& b) {
      return a.head != b.head ? a.head < b.head : a.tail > b.tail;
    });
    for (std::size_t i = 0; i < f.instructions.size(); ++i) {
      const SassInstruction& inst = f.instructions[i];
      SassMemoryOp op = decode_memory(inst.opcode, inst.modifiers, inst.operands);
      if (op.kind == Kind::Other) continue;
      op.mnemonic = inst.mnemonic;
      op.file = inst.loc.file;
      op.line = inst.loc.line;
      op.instruction = static_cast<int>(i);
      op.guard = inst.guard;
      op.loop = f.loop_of(static_cast<int>(i));
      f.memory_ops.push_back(std::move(op));
    }
  }
};

}  // namespace

Expected<std::vector<SassFunction>> parse_sass_listing(std::string_view text) {
  std::vector<SassFunction> functions;
  std::vector<FunctionBuilder> builders;
  std::vector<Directive> group;  // directives since the last instruction
  SassLoc loc;
  std::vector<SassLoc> chain;
  std::vector<std::string> pending_labels;
  std::vector<SassLoc> rows, pending_rows;  // line-table rows in force, and those announced
  while (!text.empty()) {
    const auto end = text.find('\n');
    const std::string_view s = trim(text.substr(0, end));
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    if (starts_with(s, ".text.") && s.size() > 7 && s.back() == ':') {
      builders.emplace_back();
      builders.back().f.name = std::string(s.substr(6, s.size() - 7));
      group.clear();
      loc = {};
      chain.clear();
      pending_labels.clear();
      rows.clear();
      pending_rows.clear();
      continue;
    }
    if (builders.empty()) continue;
    FunctionBuilder& b = builders.back();
    if (starts_with(s, "//## File \"")) {
      Directive d;
      if (parse_directive(s, d)) group.push_back(std::move(d));
      continue;
    }
    if (starts_with(s, "//## Row \"")) {
      std::string_view r = s.substr(9);  // after `//## Row `
      SassLoc row;
      if (parse_position(r, row)) pending_rows.push_back(std::move(row));
      b.f.has_rows = true;
      continue;
    }
    if (starts_with(s, ".L") && s.back() == ':' && s.find(' ') == std::string_view::npos) {
      pending_labels.emplace_back(s.substr(0, s.size() - 1));
      continue;
    }
    if (!starts_with(s, "/*")) continue;
    const auto code = s.find("*/");
    if (code == std::string_view::npos || code < 3) continue;
    SassInstruction inst;
    for (char c : s.substr(2, code - 2)) {
      if (!std::isxdigit(static_cast<unsigned char>(c))) break;
      inst.offset = inst.offset * 16 + static_cast<std::uint32_t>(std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    std::string_view body = trim(s.substr(code + 2));
    body = trim(body.substr(0, body.find(';')));
    if (!body.empty() && body.front() == '@') {
      const auto space = body.find(' ');
      if (space == std::string_view::npos) continue;
      inst.guard = parse_guard(body.substr(0, space));
      body = trim(body.substr(space));
    }
    const auto stop = body.find(' ');
    inst.mnemonic = std::string(body.substr(0, stop));
    if (inst.mnemonic.empty() || !std::isupper(static_cast<unsigned char>(inst.mnemonic.front()))) continue;
    inst.operands = std::string(stop == std::string_view::npos ? std::string_view{} : trim(body.substr(stop)));
    split_mnemonic(inst);
    if (!group.empty()) {
      apply_directives(group, loc, chain);
      group.clear();
    }
    inst.loc = loc;
    inst.inlined_at = chain;
    if (!pending_rows.empty()) rows = std::move(pending_rows), pending_rows.clear();
    inst.source_lines = rows;
    const int index = static_cast<int>(b.f.instructions.size());
    for (const std::string& l : pending_labels) b.labels[l] = index;
    pending_labels.clear();
    b.targets.push_back(is_branch(inst.opcode) ? branch_label(inst.operands) : std::string());
    b.f.instructions.push_back(std::move(inst));
  }
  if (builders.empty()) return make_error("no function found in the SASS listing");
  for (FunctionBuilder& b : builders) {
    if (!b.f.has_rows)  // no line table: the innermost line, and an inlined one's outermost call site
      for (SassInstruction& inst : b.f.instructions) {
        inst.source_lines.clear();
        if (inst.loc.line > 0) inst.source_lines.push_back(inst.loc);
        if (!inst.inlined_at.empty() && inst.loc.line > 0) inst.source_lines.push_back(inst.inlined_at.back());
      }
    b.finish();
    functions.push_back(std::move(b.f));
  }
  return functions;
}

}  // namespace warpscope::sass
