// sass_listing.cc: reading nvdisasm -c -gi output.
#include "sass/sass_listing.h"

#include <cctype>

namespace warpscope::sass {

namespace {

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// LDS / STS / LDG / STG and their widths; everything else is Other.
void classify(SassMemoryOp& op) {
  const std::string& m = op.mnemonic;
  if (starts_with(m, "LDSM") || starts_with(m, "LDGSTS") || starts_with(m, "LDGDEPBAR")) return;
  if (starts_with(m, "LDS")) op.kind = Kind::SharedLoad;
  else if (starts_with(m, "STS")) op.kind = Kind::SharedStore;
  else if (starts_with(m, "LDG")) op.kind = Kind::GlobalLoad;
  else if (starts_with(m, "STG")) op.kind = Kind::GlobalStore;
  else return;
  op.width = 4;
  if (m.find(".128") != std::string::npos) op.width = 16;
  else if (m.find(".64") != std::string::npos) op.width = 8;
  else if (m.find(".U16") != std::string::npos || m.find(".S16") != std::string::npos) op.width = 2;
  else if (m.find(".U8") != std::string::npos || m.find(".S8") != std::string::npos) op.width = 1;
}

bool is_memory(std::string_view m) {
  for (std::string_view p : {"LD", "ST", "ATOM", "RED"})
    if (starts_with(m, p)) return true;
  return false;
}

}  // namespace

Expected<std::vector<SassFunction>> parse_sass_listing(std::string_view text) {
  std::vector<SassFunction> functions;
  std::string file;
  int line = 0;
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view raw = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    const std::string_view s = trim(raw);
    if (starts_with(s, ".text.") && !s.empty() && s.back() == ':') {
      functions.push_back({std::string(s.substr(6, s.size() - 7)), {}});
      file.clear();
      line = 0;
      continue;
    }
    if (starts_with(s, "//## File \"")) {  // //## File "x.cu", line 26[ inlined at ...]
      const auto close = s.find('"', 11);
      const auto comma = s.find(", line ", close == std::string_view::npos ? 0 : close);
      if (close == std::string_view::npos || comma == std::string_view::npos) continue;
      file = std::string(s.substr(11, close - 11));
      line = 0;
      for (std::size_t i = comma + 7; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i)
        line = line * 10 + (s[i] - '0');
      continue;
    }
    if (functions.empty() || !starts_with(s, "/*")) continue;
    const auto code = s.find("*/");
    if (code == std::string_view::npos) continue;
    std::string_view inst = trim(s.substr(code + 2));
    if (!inst.empty() && inst.front() == '@') {  // predicate guard
      const auto space = inst.find(' ');
      if (space == std::string_view::npos) continue;
      inst = trim(inst.substr(space));
    }
    const auto stop = inst.find_first_of(" ;");
    const std::string_view mnemonic = inst.substr(0, stop);
    if (!is_memory(mnemonic) || starts_with(mnemonic, "LDC") || starts_with(mnemonic, "LDL") ||
        starts_with(mnemonic, "STL") || mnemonic.empty())
      continue;
    SassMemoryOp op;
    op.mnemonic = std::string(mnemonic);
    op.file = file;
    op.line = line;
    classify(op);
    functions.back().memory_ops.push_back(std::move(op));
  }
  if (functions.empty()) return make_error("no function found in the SASS listing");
  return functions;
}

}  // namespace warpscope::sass
