// element_type.cc: element types from declarations and from PTX accesses (see element_type.h).
#include "analysis/element_type.h"

#include <regex>

namespace warpscope::analysis {

namespace {

// "template <typename T, int N>" or "template <class T>" declares T somewhere in the lines.
bool is_template_parameter(const std::vector<std::string>& lines, const std::string& type) {
  const std::regex param("(typename|class)\\s+" + type + "\\b");
  for (const std::string& l : lines)
    if (l.find("template") != std::string::npos && std::regex_search(l, param)) return true;
  return false;
}

}  // namespace

std::optional<std::string> declared_element_type(const std::vector<std::string>& lines, const std::string& name) {
  if (name.empty()) return std::nullopt;
  // __shared__ [alignas(N)] [const|volatile] TYPE... name [ ...
  static const std::regex decl(R"(__shared__\s+(?:__align__\s*\(\s*\d+\s*\)\s+|alignas\s*\(\s*\d+\s*\)\s+)?((?:(?:const|volatile|unsigned|signed|long|short)\s+)*[A-Za-z_][\w:]*(?:\s*<[^;>]*>)?)\s+(?:__align__\s*\(\s*\d+\s*\)\s+)?([A-Za-z_]\w*)\s*\[)");
  for (const std::string& line : lines) {
    if (line.find("__shared__") == std::string::npos) continue;
    for (std::sregex_iterator it(line.begin(), line.end(), decl), end; it != end; ++it) {
      if ((*it)[2].str() != name) continue;
      std::string type = (*it)[1].str();
      for (const char* q : {"const ", "volatile "})
        while (type.rfind(q, 0) == 0) type.erase(0, std::string(q).size());
      if (is_template_parameter(lines, type)) return std::nullopt;
      return type;
    }
  }
  return std::nullopt;
}

std::string ptx_element_type(ptx::Type type, int vec) {
  std::string scalar;
  switch (type) {
    case ptx::Type::F32: scalar = "float"; break;
    case ptx::Type::F64: scalar = "double"; break;
    case ptx::Type::F16: scalar = "__half"; break;
    case ptx::Type::BF16: scalar = "__nv_bfloat16"; break;
    case ptx::Type::U32: scalar = "unsigned"; break;
    case ptx::Type::S32: scalar = "int"; break;
    case ptx::Type::U64: scalar = "unsigned long long"; break;
    case ptx::Type::S64: scalar = "long long"; break;
    case ptx::Type::U16: scalar = "unsigned short"; break;
    case ptx::Type::S16: scalar = "short"; break;
    case ptx::Type::U8: scalar = "unsigned char"; break;
    case ptx::Type::S8: scalar = "signed char"; break;
    default: return "";
  }
  if (vec <= 1) return scalar;
  // CUDA's vector types: float2, int4, uint2, double2, ...
  const std::string base = scalar == "float" ? "float" : scalar == "int" ? "int" : scalar == "unsigned" ? "uint"
                           : scalar == "double" ? "double" : scalar == "long long" ? "longlong"
                           : scalar == "unsigned long long" ? "ulonglong" : "";
  return base.empty() ? "" : base + std::to_string(vec);
}

std::string sized_element_type(std::uint64_t bytes) {
  switch (bytes) {
    case 1: return "uint8_t";
    case 2: return "uint16_t";
    case 4: return "uint32_t";
    case 8: return "uint64_t";
    case 16: return "uint4";
    default: return "char[" + std::to_string(bytes) + "]";
  }
}

}  // namespace warpscope::analysis
