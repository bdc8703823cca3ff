// access_json_fuzz.cc: libFuzzer target for the `warpscope access --jsonl` reader.
// Arbitrary bytes go through the reader and, when they parse, the cost model; neither may
// crash, hang or trip a sanitizer.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "jsonio/access_json.h"
#include "model/access_cost.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto access = warpscope::jsonio::parse_access(text);
  if (!access.ok()) return 0;
  static const warpscope::model::Arch& arch = **warpscope::model::find_arch("sm_90");
  const auto cost = warpscope::model::price(arch, *access);
  if (cost.ok()) (void)warpscope::jsonio::cost_to_json(*access, *cost).dump();
  return 0;
}
