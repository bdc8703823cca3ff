// names_fuzz.cc: libFuzzer target for the name parsers: kernel names (demangling, keys,
// matching: support/kernel_name.h) and parameter names in a .cu (ptx/source_names.h).
// Any input must give a value; crashes, hangs and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ptx/source_names.h"
#include "support/kernel_name.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  // The first line is a kernel name spelling, the rest a source file.
  const std::size_t nl = text.find('\n');
  const std::string_view spelling = text.substr(0, nl);
  const std::string_view source = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
  (void)warpscope::kernel_display_name(spelling);
  (void)warpscope::kernel_short_name(spelling);
  const std::string base = warpscope::kernel_base_name(spelling);
  const std::vector<std::string> entries = {std::string(spelling), "_Z6reduceIfLi256EEvPT_PKS0_j", "plain_c",
                                            "_Z3fooPi"};
  (void)warpscope::find_kernel_names(spelling, entries);
  (void)warpscope::kernel_names_match(spelling, "_Z16reduceSinglePassILj128ELb1EEvPKfPfj");
  for (std::size_t count = 0; count < 4; ++count)
    (void)warpscope::ptx::source_parameter_names(source, base, static_cast<int>(size % 100), count);
  return 0;
}
