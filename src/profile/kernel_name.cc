// kernel_name.cc: kernel name keys.
#include "profile/kernel_name.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace warpscope::profile {

namespace {

std::string demangle(const std::string& name) {
  if (name.rfind("_Z", 0) != 0) return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(' ');
  const auto last = s.find_last_not_of(' ');
  return first == std::string::npos ? std::string() : s.substr(first, last - first + 1);
}

// The text before the parameter list, without the return type ("void ns::k<int, 4>").
std::string strip_signature(const std::string& name) {
  int depth = 0;
  std::size_t end = name.size(), last_space = std::string::npos;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (name.compare(i, 21, "(anonymous namespace)") == 0) {  // part of the name, not its parameters
      i += 20;
      continue;
    }
    if (c == '<') ++depth;
    else if (c == '>') --depth;
    else if (c == '(' && depth == 0 && i > 0) {
      end = i;
      break;
    } else if (c == ' ' && depth == 0) last_space = i;
  }
  const std::size_t begin = last_space == std::string::npos || last_space > end ? 0 : last_space + 1;
  return trim(name.substr(begin, end - begin));
}

// Spaces inside template arguments differ between demanglers ("<float, 4>" / "<float,4>").
std::string squeeze(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != ' ') out += c;
  return out;
}

}  // namespace

std::string kernel_name_key(const std::string& name) { return squeeze(strip_signature(demangle(trim(name)))); }

bool kernel_names_match(const std::string& measured, const std::string& ptx_name) {
  if (measured == ptx_name) return true;
  const std::string a = kernel_name_key(measured), b = kernel_name_key(ptx_name);
  if (a.empty() || b.empty()) return false;  // nothing left to compare: no match
  if (a == b) return true;
  // A plain name without template arguments matches any instance.
  auto base = [](const std::string& k) { return k.substr(0, k.find('<')); };
  return (a.find('<') == std::string::npos || b.find('<') == std::string::npos) && base(a) == base(b) && !a.empty();
}

}  // namespace warpscope::profile
