// source_position.h: where in the user's source an instruction comes from, as messages and
// findings state it.
//
//   ld.global.f32 with .loc 1 27 5                       -> "transpose.cu:27:5"
//   atom.shared.add inlined from the toolkit's
//     device_atomic_functions.hpp:112 at histogram.cu:35 -> user_loc: histogram.cu:35:5
//   an instruction without .loc                          -> "k.ptx:140" (the PTX line)
//
// Code the CUDA toolkit's headers inline into a kernel (atomicAdd from
// device_atomic_functions.hpp, __ldg from sm_32_intrinsics.hpp, cooperative groups, CUB and
// libcu++ from cccl, the C++ library) is not where the user can act: its user position is
// the innermost call site in the user's own files.
#pragma once

#include <string>
#include <string_view>

#include "ptx/ir.h"

namespace warpscope::ptx {

// True for a path the CUDA toolkit (or the C++ library) provides: under a .../include/ of a
// CUDA installation (/usr/local/cuda/bin/../targets/x86_64-linux/include/..., /usr/local/
// cuda-13.0/include/...), cccl, or /usr/include.
bool is_toolkit_header(std::string_view path);

// The innermost of the instruction's .loc and its call sites that is not in a toolkit
// header; the .loc itself when all are (or when it is not inlined).
SourceLoc user_loc(const Module& module, const DebugLoc& debug);

// "file:line:col" (":col" when known) of the instruction's user position; without .loc, the
// PTX line: "k.ptx:140" (or "PTX line 140" when the PTX came from a .cu).
std::string source_position(const Module& module, const Instruction& inst);

// A file as tables show it: a toolkit header by its path below include/
// ("cooperative_groups/details/reduce.h", "device_atomic_functions.hpp"), others as given.
std::string display_file(std::string_view path);

}  // namespace warpscope::ptx
