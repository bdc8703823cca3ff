// The kernels (.entry) a PTX module defines and their parameter lists, read from
// the PTX text, so a launch can be checked before the driver sees it:
//
//   .visible .entry _Z16transpose_paddedIfEvPT_PKS0_i(
//       .param .u64 .ptr .align 1 _Z16..._param_0,    -> {".u64", 8}
//       .param .align 4 .b8 _Z16..._param_2[12]       -> {".b8", 12}  (a struct by value)
#pragma once

#include <string>
#include <vector>

#include "launch_spec.h"

namespace ptxlaunch {

struct PtxParam {
  std::string name;
  std::string type;  // ".u64", ".f32", ".b8" ...
  unsigned bytes = 0;
  bool aggregate = false;  // declared as an array (a struct passed by value)
};

struct PtxEntry {
  std::string name;
  std::vector<PtxParam> params;
  // Reads %envreg1/2, the grid workspace of cooperative_groups::this_grid(): the kernel runs
  // only under a cooperative launch (its body, or a .func before the first .entry, names them).
  bool reads_grid_workspace = false;
};

std::vector<PtxEntry> FindEntries(const std::string& ptx_text);

// Finds `name` among the entries: an exact (mangled) name, or a plain C++ name
// that matches one mangled entry (`transpose_padded` -> `_Z16transpose_padded...`).
// Throws listing the candidates when none or several match.
const PtxEntry& ResolveKernel(const std::vector<PtxEntry>& entries, const std::string& name);

// Throws, listing the kernel's parameters, when the argument count or a kind/size
// does not fit.
void CheckArguments(const PtxEntry& entry, const std::vector<ArgSpec>& args);

std::string DescribeEntry(const PtxEntry& entry);

}  // namespace ptxlaunch
