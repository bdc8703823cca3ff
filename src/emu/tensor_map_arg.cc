// tensor_map_arg.cc: a `tmap:` kernel argument: the tensor's buffer and its map's bytes.
#include <charconv>

#include "emu/args.h"
#include "emu/tensor_map.h"

namespace warpscope::emu {

Expected<KernelArg> tensor_map_argument(const std::string& spec, const ptx::Variable& param, std::uint64_t buffer,
                                        std::uint64_t size) {
  if (param.size != kTensorMapBytes)
    return make_error("a tensor map goes to a 128-byte parameter (.param .align 64 .b8 " + param.name +
                      "[128], a __grid_constant__ CUtensorMap); '" + param.name + "' has " + std::to_string(param.size) +
                      " bytes");
  tmap::TensorMapSpec parsed;
  std::string why;
  if (!tmap::parse_tensor_map_spec(spec, parsed, why)) return make_error(why);
  parsed.fields.address = buffer;
  if (!tmap::check_tensor_map(parsed.fields, why)) return make_error("cuTensorMapEncodeTiled would fail: " + why);
  // The driver cannot know the allocation; we can: the tensor must lie inside its buffer.
  const tmap::TensorMapFields& f = parsed.fields;
  std::uint64_t end = f.dims[0] * static_cast<std::uint64_t>(tmap::element_bytes(f.dtype));
  for (int i = 1; i < f.rank; ++i) end += (f.dims[i] - 1) * f.strides[i - 1];
  if (end > size)
    return make_error("the tensor's last element ends at byte " + std::to_string(end) + ", past the end of its buffer (" +
                      std::to_string(size) + " bytes)");
  TensorMapBytes bytes = encode_tensor_map(parsed.fields);
  KernelArg arg;
  arg.bytes.assign(bytes.begin(), bytes.end());
  return arg;
}

}  // namespace warpscope::emu
