// kernel_name.cc: demangling, keys and matching of kernel names (see kernel_name.h).
#include "support/kernel_name.h"

#include <cxxabi.h>

#include <cctype>
#include <cstdlib>
#include <memory>

namespace warpscope {
namespace {

std::string trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\n");
  const auto last = s.find_last_not_of(" \t\n");
  return first == std::string_view::npos ? std::string() : std::string(s.substr(first, last - first + 1));
}

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

constexpr std::string_view kAnonymous = "(anonymous namespace)";
constexpr std::string_view kSqueezedAnonymous = "(anonymousnamespace)";

// A demangled signature in parts: "void ns::k<int, 4>(float*, int)" ->
// name "ns::k<int, 4>", params "float*, int", has_params.
struct Signature {
  std::string name;
  std::string params;
  bool has_params = false;
};

Signature split(const std::string& text) {
  int depth = 0;
  std::size_t end = text.size(), last_space = std::string::npos;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (text.compare(i, kAnonymous.size(), kAnonymous) == 0) {  // part of the name, not its parameters
      i += kAnonymous.size() - 1;
      continue;
    }
    if (c == '<') {
      ++depth;
    } else if (c == '>') {
      --depth;
    } else if (c == '(' && depth == 0 && i > 0) {
      end = i;
      break;
    } else if (c == ' ' && depth == 0) {
      last_space = i;
    }
  }
  Signature s;
  const std::size_t begin = last_space == std::string::npos || last_space > end ? 0 : last_space + 1;
  s.name = trim(std::string_view(text).substr(begin, end - begin));
  if (end < text.size()) {
    s.has_params = true;
    const std::size_t close = text.rfind(')');
    if (close != std::string::npos && close > end) s.params = text.substr(end + 1, close - end - 1);
  }
  return s;
}

// Spaces dropped; integer literals plain (suffixes u/l, casts "(char)65"), true/false as 1/0.
std::string normalize(std::string_view name) {
  std::string squeezed;
  for (char c : name)
    if (c != ' ') squeezed += c;
  std::string out;
  for (std::size_t i = 0; i < squeezed.size();) {
    const char c = squeezed[i];
    const bool token_start = out.empty() || !is_word(out.back());
    if (c == '(' && token_start && squeezed.compare(i, kSqueezedAnonymous.size(), kSqueezedAnonymous) != 0) {
      // "(type)123" inside template arguments: the cast goes, the value stays.
      const std::size_t close = squeezed.find(')', i);
      if (close != std::string::npos && close + 1 < squeezed.size() &&
          (std::isdigit(static_cast<unsigned char>(squeezed[close + 1])) != 0 || squeezed[close + 1] == '-')) {
        i = close + 1;
        continue;
      }
    }
    if (token_start && std::isdigit(static_cast<unsigned char>(c)) != 0) {
      std::size_t j = i;
      const bool hex = squeezed.compare(i, 2, "0x") == 0;
      if (hex) j += 2;
      while (j < squeezed.size() && (hex ? std::isxdigit(static_cast<unsigned char>(squeezed[j])) != 0
                                         : std::isdigit(static_cast<unsigned char>(squeezed[j])) != 0))
        ++j;
      out.append(squeezed, i, j - i);
      while (j < squeezed.size() && (squeezed[j] == 'u' || squeezed[j] == 'U' || squeezed[j] == 'l' || squeezed[j] == 'L'))
        ++j;
      i = j;
      continue;
    }
    if (token_start && squeezed.compare(i, 4, "true") == 0 && (i + 4 == squeezed.size() || !is_word(squeezed[i + 4]))) {
      out += '1';
      i += 4;
      continue;
    }
    if (token_start && squeezed.compare(i, 5, "false") == 0 && (i + 5 == squeezed.size() || !is_word(squeezed[i + 5]))) {
      out += '0';
      i += 5;
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

// Parameter types compared without spaces and without where `const` stands
// ("float const*" = "const float *"): each parameter's other tokens and its count of
// qualifiers.
std::vector<std::string> normalize_params(const std::string& params) {
  std::vector<std::string> out;
  int depth = 0;
  std::string current;
  int qualifiers = 0;
  auto flush = [&] {
    if (!current.empty() || qualifiers > 0) out.push_back(normalize(current) + "#" + std::to_string(qualifiers));
    current.clear();
    qualifiers = 0;
  };
  for (std::size_t i = 0; i < params.size();) {
    const char c = params[i];
    if (is_word(c)) {
      std::size_t j = i;
      while (j < params.size() && is_word(params[j])) ++j;
      const std::string word = params.substr(i, j - i);
      if (word == "const" || word == "volatile" || word == "__restrict__" || word == "__restrict") {
        ++qualifiers;
      } else {
        if (!current.empty() && is_word(current.back())) current += ' ';
        current += word;
      }
      i = j;
      continue;
    }
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c == ',' && depth == 0) {
      flush();
    } else if (c != ' ') {
      current += c;
    }
    ++i;
  }
  flush();
  if (out.size() == 1 && out[0] == "void#0") out.clear();  // "f(void)"
  return out;
}

struct Reading {
  std::string exact;  // as given (trimmed)
  std::string key;
  std::string base;         // the key without template arguments
  std::string unqualified;  // the base without namespaces or classes
  bool has_params = false;
  std::vector<std::string> params;
};

// The part of a key before its first '<' (template arguments).
std::string base_of(const std::string& key) { return key.substr(0, key.find('<')); }

std::string unqualified_of(const std::string& base) {
  const std::size_t colons = base.rfind("::");
  return colons == std::string::npos ? base : base.substr(colons + 2);
}

Reading read(std::string_view name) {
  Reading r;
  r.exact = trim(name);
  const Signature s = split(demangle(r.exact));
  r.key = normalize(s.name);
  r.base = base_of(r.key);
  r.unqualified = unqualified_of(r.base);
  r.has_params = s.has_params;
  r.params = normalize_params(s.params);
  return r;
}

}  // namespace

std::string demangle(std::string_view name) {
  std::string text(name);
  if (text.rfind("_Z", 0) != 0) return text;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(text.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : text;
}

std::string kernel_display_name(std::string_view name) {
  const std::string text = demangle(trim(name));
  const Signature s = split(text);
  if (s.name.empty()) return text;
  return s.has_params ? s.name + "(" + s.params + ")" : s.name;
}

std::string kernel_short_name(std::string_view name) {
  const std::string text = demangle(trim(name));
  const Signature s = split(text);
  return s.name.empty() ? text : s.name;
}

std::string kernel_name_key(std::string_view name) { return read(name).key; }

std::string kernel_base_name(std::string_view name) { return read(name).unqualified; }

std::vector<std::size_t> find_kernel_names(std::string_view spelling, const std::vector<std::string>& entries) {
  const Reading want = read(spelling);
  std::vector<Reading> have;
  have.reserve(entries.size());
  for (const std::string& e : entries) have.push_back(read(e));
  const bool plain = want.key.find('<') == std::string::npos;
  const bool unqualified = plain && want.key.find("::") == std::string::npos;
  using Test = bool (*)(const Reading& want, const Reading& entry);
  const Test tests[] = {
      [](const Reading& w, const Reading& e) { return w.exact == e.exact; },
      [](const Reading& w, const Reading& e) { return w.has_params && w.key == e.key && w.params == e.params; },
      [](const Reading& w, const Reading& e) { return w.key == e.key; },
      [](const Reading& w, const Reading& e) { return w.key == e.base; },
      [](const Reading& w, const Reading& e) { return w.key == e.unqualified; },
  };
  std::vector<std::size_t> found;
  if (want.key.empty() && want.exact.empty()) return found;
  for (std::size_t t = 0; t < std::size(tests) && found.empty(); ++t) {
    if ((t == 3 && !plain) || (t == 4 && !unqualified)) continue;
    if (t > 0 && want.key.empty()) break;  // nothing left to compare but the exact name
    for (std::size_t i = 0; i < have.size(); ++i)
      if (tests[t](want, have[i])) found.push_back(i);
  }
  return found;
}

bool kernel_names_match(std::string_view spelling, std::string_view entry_name) {
  const std::vector<std::string> one{std::string(entry_name)}, other{std::string(spelling)};
  return !find_kernel_names(spelling, one).empty() || !find_kernel_names(entry_name, other).empty();
}

}  // namespace warpscope
