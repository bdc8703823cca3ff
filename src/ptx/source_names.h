// source_names.h: a kernel's parameter names as its .cu source writes them.
//
// nvcc names a kernel's PTX parameters after the mangled name (`_Z9transposePfPKfi_param_0`);
// messages read better with the source's (`out`). When the kernel's .file (the one its
// body's .loc lines name, outside inlined code) can be read, its signature there gives
// the names:
//
//   template <class T> __global__ void transpose(T* out, const T* in, int n) {
//   -> out, in, n    (Variable::source_name of _Z9transposeIfEvPT_PKS0_i_param_0, _1, _2)
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/ir.h"

namespace warpscope::ptx {

// A source file's text by the path a .file directive gives, or nullopt.
using SourceReader = std::function<std::optional<std::string>(const std::string& path)>;

// Sets Variable::source_name of each kernel parameter whose kernel's source can be read
// and whose signature there is found with as many parameters as the PTX has (a
// parameter pack, an unnamed parameter: those stay unnamed).
void name_parameters_from_sources(Module& module, const SourceReader& read);

// The parameter names of the __global__ function `name` (unqualified) in `source`: of
// the definition with `count` parameters nearest before `line` (the first line of its
// body, 0 when unknown). Unnamed parameters are ""; an empty vector when there is none.
std::vector<std::string> source_parameter_names(std::string_view source, std::string_view name, int line,
                                                std::size_t count);

}  // namespace warpscope::ptx
