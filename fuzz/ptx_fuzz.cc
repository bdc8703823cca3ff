// ptx_fuzz.cc: libFuzzer target for the PTX parser. Any input must give a Module or an
// Error value; crashes, hangs and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto module = warpscope::ptx::parse(text, "fuzz.ptx");
  if (!module) (void)module.error().render();
  return 0;
}
