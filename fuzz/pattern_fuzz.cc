// pattern_fuzz.cc: libFuzzer target for the pattern language. Any input must give a report
// or an Error value, quickly: the language bounds expressions, arrays and loops, and the
// runner's work cap is small here. Crashes, hangs and sanitizer reports are bugs.
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/arch.h"
#include "pattern/json_writer.h"
#include "pattern/runner.h"
#include "pattern/text_writer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warpscope;
  const pattern::Source source("fuzz.ws", std::string(reinterpret_cast<const char*>(data), size));
  static const model::Arch& arch = **model::find_arch("sm_90");
  pattern::RunLimits limits;
  limits.max_warp_executions = 256;
  auto report = pattern::analyze(source, arch, limits);
  if (!report) {
    (void)report.error().render();
    return 0;
  }
  (void)pattern::text_report(*report);
  (void)pattern::json_report(*report).dump();
  return 0;
}
