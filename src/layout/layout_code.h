// layout_code.h: a layout as the CUDA source a user writes: a declaration or an index
// expression, and the CuTe swizzle.
//
//   Padding{128, 4}, "tile", float, 4096 B  ->  __shared__ float tile[32][33];  // flat: tile[i + i / 32]
//   Swizzle{5, 2, 5}                        ->  tile[r][c ^ (r & 31)]  (32 columns; flat: tile[i ^ ((i >> 5) & 31)])
//   Swizzle{3, 4, 3}, uint4                 ->  tile[r][c ^ (r & 7)]  ...   cute: Swizzle<3,0,3> on elements
//
// The element type is only known by its size (PTX declares bytes): 4 -> float, 8 -> double,
// 16 -> float4, 2 -> __half, 1 -> char; read it as "any type of that size".
#pragma once

#include <cstdint>
#include <string>

#include "layout/layout.h"

namespace warpscope::layout {

struct ArrayShape {
  std::string name;            // "tile"
  std::uint64_t elem_bytes = 4;
  std::uint64_t size = 0;      // bytes as declared
};

// The C type name used for elements of `bytes` bytes.
std::string element_type(std::uint64_t bytes);

// The rewrite as code: the new declaration, or the index expression.
std::string layout_code(const Layout& layout, const ArrayShape& array);

// For CuTe users: "Swizzle<5,0,5> on element offsets (Swizzle<5,2,5> on bytes)", or "".
std::string cute_code(const Layout& layout, const ArrayShape& array);

}  // namespace warpscope::layout
