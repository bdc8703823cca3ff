// element_type.cc: the element type table.
#include "pattern/element_type.h"

#include <array>

namespace warpscope::pattern {

namespace {
constexpr std::array<ElementType, 21> kTypes{{
    {"char", 1},   {"uchar", 1},  {"int8", 1},   {"uint8", 1},   {"short", 2},  {"ushort", 2},
    {"half", 2},   {"bfloat16", 2}, {"int", 4},  {"uint", 4},    {"float", 4},  {"double", 8},
    {"long", 8},   {"ulong", 8},  {"int2", 8},   {"uint2", 8},   {"float2", 8}, {"int4", 16},
    {"uint4", 16}, {"float4", 16}, {"double2", 16},
}};
}  // namespace

std::optional<ElementType> find_element_type(std::string_view name) {
  for (const ElementType& t : kTypes)
    if (t.name == name) return t;
  return std::nullopt;
}

std::string_view element_type_names() {
  return "char, uchar, int8, uint8, short, ushort, half, bfloat16, int, uint, float, double, long, ulong, "
         "int2, uint2, float2, int4, uint4, float4, double2";
}

}  // namespace warpscope::pattern
