// element_type.h: the element type of a shared array as the user declared it, for advice
// written in the user's words ("__shared__ unsigned bins[8][33]", not "float").
//
//   the .cu at hand:   __shared__ unsigned int s_hist[256];     -> "unsigned int"
//                      extern __shared__ float sdata[];          -> "float" (dynamic)
//   a template's T:    __shared__ T tile[32][32];                -> the PTX accesses decide
//   only the PTX:      ld.shared.f32 / atom.shared.add.u32 ...   -> "float" / "unsigned"
//   nothing known:     by size: "4-byte element" is not a type, so "uint32_t"-like names by size
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "ptx/ir.h"

namespace warpscope::analysis {

// The type in the first `__shared__ TYPE name[` (or `extern __shared__ TYPE name[]`) of the
// lines; nothing when the array is not declared there or its type is a template parameter.
std::optional<std::string> declared_element_type(const std::vector<std::string>& lines, const std::string& name);

// The C type a PTX access of this type and vector width reads: f32 -> "float", u32 ->
// "unsigned", s32 -> "int", v4.f32 -> "float4"; empty when the PTX type says only a size (b32).
std::string ptx_element_type(ptx::Type type, int vec);

// A C type of `bytes` bytes when nothing better is known: 4 -> "uint32_t"-sized names that
// say only the size ("4-byte element").
std::string sized_element_type(std::uint64_t bytes);

}  // namespace warpscope::analysis
