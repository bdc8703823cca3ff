// kernel_name.h: kernel names as users, c++filt, ncu and the PTX write them.
//
//   PTX entry (mangled)   _Z16reduceSinglePassILj128ELb1EEvPKfPfj
//   c++filt               void reduceSinglePass<128u, true>(float const*, float*, unsigned int)
//   ncu                   void reduceSinglePass<128, 1>(const float *, float *, unsigned int)
//   ncu, base names       reduceSinglePass
//   printed by warpscope  reduceSinglePass<128u, true>(float const*, float*, unsigned int)
//   key (all of them)     reduceSinglePass<128,1>
//
// A key is the qualified name with its template arguments, without return type,
// parameters or spaces, with integer literals plain ("128u" -> "128", "(char)65" -> "65")
// and booleans as 1/0: the spellings above share one key. Matching a spelling against a
// module's entries prefers the most specific reading (see find_kernel_names).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace warpscope {

// "_Z9transposePfPKfi" -> "transpose(float*, float const*, int)"; anything that is not
// an Itanium-mangled name (extern "C" kernels, names already demangled) is returned as
// it is.
std::string demangle(std::string_view name);

// How reports and messages name a kernel: demangled, without the return type:
// "reduce<float, 256>(float*, float const*, unsigned int)".
std::string kernel_display_name(std::string_view name);
// Without the parameters too, for messages that list them: "reduce<float, 256>".
std::string kernel_short_name(std::string_view name);

// The key of a plain, mangled or demangled name (see above); "" when nothing is left
// ("void (int *)").
std::string kernel_name_key(std::string_view name);

// The function's own name, as its definition in the source spells it: no namespaces,
// no template arguments ("_ZN2ns6kernelIiEEvPT_" -> "kernel").
std::string kernel_base_name(std::string_view name);

// Whether `spelling` (ncu's, a user's) names the entry `entry_name`; a name without
// template arguments names every instance of the template.
bool kernel_names_match(std::string_view spelling, std::string_view entry_name);

// The entries among `entries` (PTX names) that `spelling` names, from the first of
// these readings that names any:
//   1. the entry's own (mangled) name;
//   2. the demangled signature with its parameters, when the spelling has some
//      ("void f<int>(int*, int)"; const placement and spaces do not matter);
//   3. the key ("reduce<float, 256>", "mergeSortSharedKernel<1u>", "reduceSinglePass<128, 1>");
//   4. the name without template arguments ("reduce": every instance);
//   5. the unqualified name ("kernel" for "ns::kernel<int>").
// Several indexes mean the spelling is ambiguous; none, that it names no entry.
std::vector<std::size_t> find_kernel_names(std::string_view spelling, const std::vector<std::string>& entries);

}  // namespace warpscope
