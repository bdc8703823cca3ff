// source_names.cc: parameter names from a kernel's signature in its source file.
#include "ptx/source_names.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <unordered_set>

#include "support/kernel_name.h"

namespace warpscope::ptx {
namespace {

bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The text with comments blanked out (newlines kept, so line numbers stay).
std::string without_comments(std::string_view s) {
  std::string out(s);
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '/' && out[i + 1] == '/') {
      while (i < out.size() && out[i] != '\n') out[i++] = ' ';
    } else if (out[i] == '/' && out[i + 1] == '*') {
      out[i] = out[i + 1] = ' ';
      for (i += 2; i < out.size() && !(out[i] == '*' && i + 1 < out.size() && out[i + 1] == '/'); ++i)
        if (out[i] != '\n') out[i] = ' ';
      if (i + 1 < out.size()) out[i] = out[i + 1] = ' ';
    }
  }
  return out;
}

std::size_t skip_space(const std::string& s, std::size_t i) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])) != 0) ++i;
  return i;
}

// The index just past the bracket that closes the one at `open`, or npos.
std::size_t past_closing(const std::string& s, std::size_t open, char o, char c) {
  int depth = 0;
  for (std::size_t i = open; i < s.size(); ++i) {
    if (s[i] == o) ++depth;
    if (s[i] == c && --depth == 0) return i + 1;
  }
  return std::string::npos;
}

// "const float* __restrict__ in" -> "in"; "int" / "float*" (unnamed) -> "".
std::string parameter_name(std::string_view param) {
  static const std::unordered_set<std::string_view> kNotNames = {
      "const", "volatile", "__restrict__", "__restrict", "restrict", "unsigned", "signed", "int", "char", "short",
      "long", "float", "double", "bool", "void", "struct", "class", "typename", "__grid_constant__"};
  // Drop a default value and array declarators.
  int depth = 0;
  std::size_t end = param.size();
  for (std::size_t i = 0; i < param.size(); ++i) {
    const char c = param[i];
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c == '=' && depth == 0) {
      end = i;
      break;
    }
  }
  param = param.substr(0, end);
  if (param.find('(') != std::string_view::npos) return "";  // a function pointer: not worth guessing
  std::vector<std::string_view> words;
  for (std::size_t i = 0; i < param.size();) {
    if (param[i] == '[') {
      while (i < param.size() && param[i] != ']') ++i;
      continue;
    }
    if (param[i] == '<') {  // template arguments of the type
      int d = 0;
      for (; i < param.size(); ++i) {
        if (param[i] == '<') ++d;
        if (param[i] == '>' && --d == 0) break;
      }
      ++i;
      continue;
    }
    if (is_word(param[i]) && std::isdigit(static_cast<unsigned char>(param[i])) == 0) {
      std::size_t j = i;
      while (j < param.size() && is_word(param[j])) ++j;
      words.push_back(param.substr(i, j - i));
      i = j;
      continue;
    }
    ++i;
  }
  // The last word names the parameter when a type comes before it.
  std::vector<std::string_view> kept;
  for (std::string_view w : words)
    if (w != "const" && w != "volatile" && w != "__restrict__" && w != "__restrict" && w != "restrict" &&
        w != "__grid_constant__")
      kept.push_back(w);
  if (kept.size() < 2 || kNotNames.count(kept.back()) != 0) return "";
  return std::string(kept.back());
}

std::vector<std::string> parameter_names(const std::string& list) {
  std::vector<std::string> names;
  int depth = 0;
  std::size_t start = 0;
  bool any = false;
  for (std::size_t i = 0; i <= list.size(); ++i) {
    const char c = i < list.size() ? list[i] : ',';
    if (c == '<' || c == '(' || c == '[') ++depth;
    if (c == '>' || c == ')' || c == ']') --depth;
    if (c == ',' && depth <= 0) {
      std::string_view part = std::string_view(list).substr(start, i - start);
      const bool blank = part.find_first_not_of(" \t\r\n") == std::string_view::npos;
      if (!blank) any = true;
      names.push_back(parameter_name(part));
      start = i + 1;
    }
  }
  const auto first = list.find_first_not_of(" \t\r\n"), last = list.find_last_not_of(" \t\r\n");
  if (!any || (first != std::string::npos && list.substr(first, last - first + 1) == "void")) names.clear();  // f(void)
  return names;
}

// Whether `word` occurs as a whole word in s[from, to).
bool has_word(const std::string& s, std::size_t from, std::size_t to, std::string_view word) {
  for (std::size_t i = s.find(word, from); i != std::string::npos && i + word.size() <= to; i = s.find(word, i + 1)) {
    const bool left = i == 0 || !is_word(s[i - 1]);
    const bool right = i + word.size() >= s.size() || !is_word(s[i + word.size()]);
    if (left && right) return true;
  }
  return false;
}

}  // namespace

std::vector<std::string> source_parameter_names(std::string_view source, std::string_view name, int line,
                                                std::size_t count) {
  const std::string text = without_comments(source);
  struct Candidate {
    int line;
    std::vector<std::string> names;
  };
  std::vector<Candidate> found;
  if (name.empty()) return {};
  for (std::size_t pos = text.find(name); pos != std::string::npos; pos = text.find(name, pos + 1)) {
    if ((pos > 0 && is_word(text[pos - 1])) || (pos + name.size() < text.size() && is_word(text[pos + name.size()])))
      continue;
    std::size_t i = skip_space(text, pos + name.size());
    if (i < text.size() && text[i] == '<') {  // explicit template arguments: an instantiation, not the definition
      continue;
    }
    if (i >= text.size() || text[i] != '(') continue;
    const std::size_t close = past_closing(text, i, '(', ')');
    if (close == std::string::npos) continue;
    // A definition: its body follows (after attributes such as __launch_bounds__(256)).
    std::size_t k = skip_space(text, close);
    while (k < text.size() && is_word(text[k])) {
      while (k < text.size() && is_word(text[k])) ++k;
      k = skip_space(text, k);
      if (k < text.size() && text[k] == '(') {
        const std::size_t attr = past_closing(text, k, '(', ')');
        if (attr == std::string::npos) break;
        k = skip_space(text, attr);
      }
    }
    if (k >= text.size() || text[k] != '{') continue;
    // __global__ in the same declaration.
    const std::size_t start = text.find_last_of(";}{", pos);
    if (!has_word(text, start == std::string::npos ? 0 : start, pos, "__global__")) continue;
    std::vector<std::string> names = parameter_names(text.substr(i + 1, close - i - 2));
    if (names.size() != count) continue;
    const int at = 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    found.push_back(Candidate{at, std::move(names)});
  }
  if (found.empty()) return {};
  const Candidate* best = &found.front();
  for (const Candidate& c : found)
    if (line > 0 && c.line <= line && (best->line > line || c.line > best->line)) best = &c;
  return best->names;
}

void name_parameters_from_sources(Module& module, const SourceReader& read) {
  std::map<std::string, std::optional<std::string>> texts;
  for (const Function& f : module.functions) {
    if (!f.is_entry || f.params.empty()) continue;
    const Instruction* first = nullptr;
    for (const Instruction& inst : f.body)
      if (inst.debug.outer.known()) {
        first = &inst;
        break;
      }
    if (first == nullptr) continue;
    auto file = module.files.find(first->debug.outer.file);
    if (file == module.files.end()) continue;
    auto text = texts.find(file->second);
    if (text == texts.end()) text = texts.emplace(file->second, read(file->second)).first;
    if (!text->second) continue;
    const std::vector<std::string> names =
        source_parameter_names(*text->second, kernel_base_name(f.name), first->debug.outer.line, f.params.size());
    for (std::size_t i = 0; i < names.size(); ++i)
      module.variables[static_cast<std::size_t>(f.params[i])].source_name = names[i];
  }
}

}  // namespace warpscope::ptx
