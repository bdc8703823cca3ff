// ncu_csv_fuzz.cc: libFuzzer target for the ncu CSV readers (the raw page and the Source
// page). Any input must give measurements or an Error value; crashes, hangs and sanitizer
// reports are bugs.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "profile/ncu_report.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto kernels = warpscope::profile::parse_raw_page(text, "fuzz.csv");
  if (!kernels) (void)kernels.error().render();
  auto sources = warpscope::profile::parse_source_page(text, "fuzz.csv");
  if (!sources) (void)sources.error().render();
  if (kernels && sources) (void)warpscope::profile::pair_sources(*kernels, *sources);
  (void)warpscope::profile::diagnose_ncu_output(text);
  return 0;
}
