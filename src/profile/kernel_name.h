// kernel_name.h: telling whether ncu's name for a kernel and a PTX entry's name are one kernel.
//
// ncu prints plain names (extern "C"), demangled ones with the template parameters'
// names ("void transpose_padded<float>(T1 *, const T1 *, int)") or, with
// --print-kernel-base mangled, the PTX's own ("_Z16transpose_paddedIfEvPT_PKS0_i").
// Both sides are reduced to a key, the qualified name with its template arguments and
// without return type or parameters: "transpose_padded<float>".
#pragma once

#include <string>

namespace warpscope::profile {

// The key of a plain, mangled or demangled kernel name.
std::string kernel_name_key(const std::string& name);

// Whether ncu's `measured` names the PTX entry `ptx_name`; a plain name given by a user
// ("transpose_padded") also matches every instance of a template.
bool kernel_names_match(const std::string& measured, const std::string& ptx_name);

}  // namespace warpscope::profile
