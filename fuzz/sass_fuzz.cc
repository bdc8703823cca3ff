// sass_fuzz.cc: libFuzzer target for the nvdisasm listing reader. Any input must give
// functions or an Error value; crashes, hangs and sanitizer reports are bugs. Each function's
// instructions are then walked the way the SASS matcher walks them (loops, memory ops).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sass/sass_listing.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto functions = warpscope::sass::parse_sass_listing(text);
  if (!functions) return 0;
  for (const auto& f : *functions)
    for (const auto& op : f.memory_ops) (void)f.loop_of(op.instruction);
  return 0;
}
