// Reads .entry declarations and their .param lists from PTX text.
#include "ptx_entries.h"

#include <cctype>
#include <sstream>
#include <string_view>

namespace ptxlaunch {
namespace {

std::string StripComments(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text.compare(i, 2, "//") == 0) {
      while (i < text.size() && text[i] != '\n') ++i;
      out += '\n';
    } else if (text.compare(i, 2, "/*") == 0) {
      size_t end = text.find("*/", i + 2);
      i = end == std::string::npos ? text.size() : end + 1;
      out += ' ';
    } else {
      out += text[i];
    }
  }
  return out;
}

unsigned TypeBytes(const std::string& type) {
  if (type.size() < 3) return 0;
  std::string bits = type.substr(2);
  if (bits == "8") return 1;
  if (bits == "16") return 2;
  if (bits == "32") return 4;
  if (bits == "64") return 8;
  if (bits == "128") return 16;
  return 0;
}

bool IsScalarType(const std::string& token) {
  return token.size() >= 3 && token[0] == '.' && std::string("usbf").find(token[1]) != std::string::npos &&
         std::isdigit(static_cast<unsigned char>(token[2])) && TypeBytes(token) != 0;
}

PtxParam ParseParam(const std::string& decl) {
  std::istringstream in(decl);
  std::vector<std::string> tokens;
  for (std::string t; in >> t;) tokens.push_back(t);
  PtxParam param;
  if (tokens.empty() || tokens[0] != ".param") throw Error("cannot read PTX parameter '" + decl + "'");
  for (const std::string& t : tokens)
    if (IsScalarType(t)) param.type = t;
  std::string last = tokens.back();
  unsigned count = 1;
  size_t bracket = last.find('[');
  if (bracket != std::string::npos) {
    count = unsigned(std::stoul(last.substr(bracket + 1)));
    last = last.substr(0, bracket);
    param.aggregate = true;
  }
  param.name = last;
  param.bytes = TypeBytes(param.type) * count;
  if (param.bytes == 0) throw Error("cannot read PTX parameter '" + decl + "'");
  return param;
}

// Why `arg` cannot go to `param`, or "" when it can: the rules of warpscope's emu/args.cc
// (a buffer to an 8-byte integer parameter, a scalar to one of its size and kind or to an
// aggregate of its size, bytes: and struct: to exactly their size).
std::string Misfit(const PtxParam& param, const ArgSpec& arg) {
  const std::string& t = param.type;
  const bool float_param = t.size() > 1 && t[1] == 'f', bits = t.size() > 1 && t[1] == 'b';
  switch (arg.form) {
    case ArgSpec::Form::Buffer:
      return param.bytes == 8 && !float_param ? "" : "a buffer needs a 64-bit pointer parameter";
    case ArgSpec::Form::Scalar: {
      if (param.bytes != arg.size) return "it is " + std::to_string(arg.size) + " bytes";
      if (param.aggregate) return "";
      const bool float_arg = warpscope::emu::type_info(arg.type).is_float;
      return (float_arg ? (float_param || bits) : !float_param) ? "" : "integer and float do not mix";
    }
    case ArgSpec::Form::Bytes:
    case ArgSpec::Form::Struct:
      return param.bytes == arg.size ? "" : "it gives " + std::to_string(arg.size) + " bytes";
    case ArgSpec::Form::Padding:
      return "pad:<n> is only a struct field";
    case ArgSpec::Form::Extension:  // tmap: a CUtensorMap, a .b8 [128] aggregate
      return param.bytes == 128 ? "" : "a tensor map needs a 128-byte parameter (a __grid_constant__ CUtensorMap)";
  }
  return "";
}

}  // namespace

// Whether `text` names %envreg1 or %envreg2 (not %envreg10..29).
bool NamesGridWorkspace(std::string_view text) {
  for (size_t at = text.find("%envreg"); at != std::string_view::npos; at = text.find("%envreg", at + 7)) {
    const size_t d = at + 7;
    if (d < text.size() && (text[d] == '1' || text[d] == '2') &&
        (d + 1 >= text.size() || !std::isdigit(static_cast<unsigned char>(text[d + 1]))))
      return true;
  }
  return false;
}

std::vector<PtxEntry> FindEntries(const std::string& ptx_text) {
  std::string text = StripComments(ptx_text);
  std::vector<PtxEntry> entries;
  const bool functions_read_it = NamesGridWorkspace(std::string_view(text).substr(0, text.find(".entry")));
  for (size_t pos = text.find(".entry"); pos != std::string::npos; pos = text.find(".entry", pos + 6)) {
    size_t i = pos + 6;
    if (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) continue;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    size_t name_start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i])) && text[i] != '(' && text[i] != '{') ++i;
    PtxEntry entry;
    entry.name = text.substr(name_start, i - name_start);
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i < text.size() && text[i] == '(') {
      size_t close = text.find(')', i);
      if (close == std::string::npos) throw Error("PTX: unterminated parameter list of .entry " + entry.name);
      std::string list = text.substr(i + 1, close - i - 1);
      std::istringstream decls(list);
      for (std::string decl; std::getline(decls, decl, ',');) {
        if (decl.find_first_not_of(" \t\r\n") == std::string::npos) continue;
        entry.params.push_back(ParseParam(decl));
      }
    }
    const size_t next = text.find(".entry", i);
    entry.reads_grid_workspace =
        functions_read_it || NamesGridWorkspace(std::string_view(text).substr(i, next == std::string::npos ? std::string::npos : next - i));
    entries.push_back(entry);
  }
  return entries;
}

std::string DescribeEntry(const PtxEntry& entry) {
  std::ostringstream out;
  out << entry.name << "(";
  for (size_t i = 0; i < entry.params.size(); ++i) {
    const PtxParam& p = entry.params[i];
    out << (i ? ", " : "") << p.type;
    if (p.aggregate) out << "[" << p.bytes << " bytes]";
  }
  out << ")";
  return out.str();
}

const PtxEntry& ResolveKernel(const std::vector<PtxEntry>& entries, const std::string& name) {
  for (const PtxEntry& e : entries)
    if (e.name == name) return e;
  std::string mangled_prefix = "_Z" + std::to_string(name.size()) + name;
  std::vector<const PtxEntry*> matches;
  for (const PtxEntry& e : entries)
    if (e.name.compare(0, mangled_prefix.size(), mangled_prefix) == 0) matches.push_back(&e);
  if (matches.size() == 1) return *matches[0];
  std::string list;
  for (const PtxEntry* e : matches) list += "\n  " + DescribeEntry(*e);
  if (!matches.empty())
    throw Error("kernel '" + name + "' is ambiguous; pass one of these names to --kernel:" + list);
  for (const PtxEntry& e : entries) list += "\n  " + DescribeEntry(e);
  throw Error("no kernel '" + name + "' in the PTX; it defines:" + (list.empty() ? " (nothing)" : list));
}

void CheckArguments(const PtxEntry& entry, const std::vector<ArgSpec>& args) {
  std::string params;
  for (size_t i = 0; i < entry.params.size(); ++i) {
    const PtxParam& p = entry.params[i];
    params += "\n  " + std::to_string(i) + ": " + p.type + (p.aggregate ? "[]" : "") + " (" +
              std::to_string(p.bytes) + " bytes) " + p.name;
  }
  if (args.size() != entry.params.size())
    throw Error("kernel " + entry.name + " takes " + std::to_string(entry.params.size()) +
                " parameters but " + std::to_string(args.size()) + " --arg were given; parameters:" + params);
  for (size_t i = 0; i < args.size(); ++i)
    if (std::string why = Misfit(entry.params[i], args[i]); !why.empty())
      throw Error("--arg " + std::to_string(i) + " '" + args[i].text + "' does not fit parameter " + std::to_string(i) +
                  " of " + entry.name + " (" + why + "); parameters:" + params);
}

}  // namespace ptxlaunch
