// element_type.h: the element types an array may hold, and their sizes in bytes.
//
//   1: char uchar int8 uint8      2: short ushort half bfloat16
//   4: int uint float             8: double long ulong int2 uint2 float2
//  16: int4 uint4 float4 double2
#pragma once

#include <optional>
#include <string_view>

namespace warpscope::pattern {

struct ElementType {
  std::string_view name;
  int bytes = 4;
};

std::optional<ElementType> find_element_type(std::string_view name);
// "char, uchar, ..." for error messages.
std::string_view element_type_names();

}  // namespace warpscope::pattern
