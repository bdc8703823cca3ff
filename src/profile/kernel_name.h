// kernel_name.h: telling whether ncu's name for a kernel and a PTX entry's name are one
// kernel. The matching lives in support/kernel_name.h (the emulator's --kernel lookup
// uses the same rules); this header names it for the profile code.
//
// ncu prints plain names (extern "C"), demangled ones with the template parameters'
// names ("void transpose_padded<float>(T1 *, const T1 *, int)") or, with
// --print-kernel-base mangled, the PTX's own ("_Z16transpose_paddedIfEvPT_PKS0_i").
#pragma once

#include "support/kernel_name.h"

namespace warpscope::profile {

using warpscope::kernel_name_key;
using warpscope::kernel_names_match;

}  // namespace warpscope::profile
