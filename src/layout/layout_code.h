// layout_code.h: a layout as the CUDA source a user writes: a declaration or an index
// expression, and the CuTe swizzle.
//
//   Padding{128, 4}, "tile", float, 4096 B  ->  __shared__ float tile[32][33];  // flat: tile[i + i / 32]
//   Swizzle{5, 2, 5}                        ->  tile[r][c ^ (r & 31)]  (32 columns; flat: tile[i ^ ((i >> 5) & 31)])
//   Swizzle{3, 4, 3}, uint4                 ->  tile[r][c ^ (r & 7)]  ...   cute: Swizzle<3,0,3> on elements
//
// The element type is the array's declared one when the caller knows it (ArrayShape::type,
// from the .cu or the PTX accesses: analysis/element_type.h); otherwise named by its size.
// An extern __shared__ array (dynamic) cannot be declared with a shape: its code is the
// index expression to use for element i, and the bytes to launch with.
//
//   Padding{128, 4}, extern "sdata", 4096 B -> extern __shared__ float sdata[]; use sdata[i + i / 32]
//                                              for element i (4224 bytes: launch with 128 more)
#pragma once

#include <cstdint>
#include <string>

#include "layout/layout.h"

namespace warpscope::layout {

struct ArrayShape {
  std::string name;            // "tile"
  std::uint64_t elem_bytes = 4;
  std::uint64_t size = 0;      // bytes as declared (an extern array: as launched)
  std::string type;            // the element type as declared ("unsigned"); empty: by its size
  bool dynamic = false;        // extern __shared__: sized by the launch
};

// The C type name used for elements of `bytes` bytes when the declaration is not known.
std::string element_type(std::uint64_t bytes);

// The rewrite as code: the new declaration, or the index expression.
std::string layout_code(const Layout& layout, const ArrayShape& array);

// For CuTe users: "Swizzle<5,0,5> on element offsets (Swizzle<5,2,5> on bytes)", or "".
std::string cute_code(const Layout& layout, const ArrayShape& array);

}  // namespace warpscope::layout
