// arg_spec_fuzz.cc: libFuzzer target for the --arg grammar (emu/arg_spec.h). Any input must
// parse to a spec or an error message; a parsed buffer of modest size is filled, so the
// fill, iota and rand generators run on every recipe the grammar accepts.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "emu/arg_spec.h"

namespace {

void fill(const warpscope::emu::ArgSpec& spec) {
  using warpscope::emu::ArgSpec;
  if (spec.form == ArgSpec::Form::Buffer && spec.buffer.bytes <= (1u << 20)) {
    std::vector<std::uint8_t> out(spec.buffer.bytes, 0);
    warpscope::emu::write_contents(spec.buffer, out.data());
  }
  for (const ArgSpec& field : spec.fields) fill(field);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  warpscope::emu::ArgSpec spec;
  std::string error;
  if (warpscope::emu::parse_arg_spec(text, spec, error)) fill(spec);
  return 0;
}
