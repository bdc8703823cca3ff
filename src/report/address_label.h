// address_label.h: a global address as the user knows it: the buffer it falls in, by the
// kernel parameter's name when the .cu is at hand, and the byte offset in it.
//
//   0x700001f40 in arg1 (parameter `in`)  ->  "in+0x1f40"   (without names: "arg1+0x1f40")
//   a .global variable `counter`           ->  "counter+0x8"
//   no buffer there                        ->  "0x7fff00000040"
#pragma once

#include <cstdint>
#include <string>

#include "analysis/kernel_report.h"

namespace warpscope::report {

// The name a buffer is shown by: "arg1" -> the parameter's name when known, "arg2.0" (a
// struct's pointer field) -> "p.0"; other names as they are.
std::string buffer_display_name(const analysis::KernelReport& report, const std::string& buffer);

// "arg1+0x1f40".
std::string address_label(const analysis::KernelReport& report, std::uint64_t address);

}  // namespace warpscope::report
