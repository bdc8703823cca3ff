// tensor_map_fuzz.cc: libFuzzer target for `tmap:` specs and the tensor-map bytes. Any
// spec must parse or give a message; a parsed map must pass or fail the driver's checks
// with a message; any 128 bytes must decode and, when valid, give a box whose rows and
// sectors are computed without crashing.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "emu/tensor_box.h"
#include "emu/tensor_map.h"
#include "emu/tensor_map_spec.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace warpscope;
  std::string text(reinterpret_cast<const char*>(data), size);
  tmap::TensorMapSpec spec;
  std::string why;
  if (tmap::parse_tensor_map_spec("tmap:" + text, spec, why)) {
    spec.fields.address = 0x700000000ull;
    if (!tmap::check_tensor_map(spec.fields, why) && why.empty()) __builtin_trap();
  } else if (why.empty()) {
    __builtin_trap();
  }
  if (size >= emu::kTensorMapBytes + 20) {
    tmap::TensorMapFields map = emu::decode_tensor_map(data);
    if (tmap::check_tensor_map(map, why)) {
      emu::BoxShape shape = emu::box_shape(map);
      if (shape.rows <= 65536) {
        std::int32_t coords[5];
        std::memcpy(coords, data + emu::kTensorMapBytes, sizeof coords);
        auto rows = emu::box_rows(map, shape, coords);
        (void)emu::box_sectors(rows, shape.element_bytes);
      }
    }
  }
  return 0;
}
