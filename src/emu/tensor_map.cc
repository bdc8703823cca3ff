// tensor_map.cc: the emulator's tensor-map bytes (see tensor_map.h).
#include "emu/tensor_map.h"

#include <cstring>

namespace warpscope::emu {
namespace {

using ptx::async::MapField;

constexpr std::size_t kAddress = 0, kRank = 8, kType = 12, kDims = 16, kBox = 36, kElemStrides = 56, kInterleave = 76,
                      kSwizzle = 80, kFill = 84, kAtomicity = 88, kStrides = 96;

template <class T>
void put(std::uint8_t* b, std::size_t at, T v) {
  std::memcpy(b + at, &v, sizeof v);
}
template <class T>
T get(const std::uint8_t* b, std::size_t at) {
  T v;
  std::memcpy(&v, b + at, sizeof v);
  return v;
}

}  // namespace

TensorMapBytes encode_tensor_map(const tmap::TensorMapFields& f) {
  TensorMapBytes out{};
  std::uint8_t* b = out.data();
  put<std::uint64_t>(b, kAddress, f.address);
  put<std::uint32_t>(b, kRank, static_cast<std::uint32_t>(f.rank - 1));
  put<std::uint32_t>(b, kType, static_cast<std::uint32_t>(f.dtype));
  // Only the map's own dimensions: the rest stay zero, as on a map built on the device.
  for (int i = 0; i < f.rank && i < tmap::kMaxRank; ++i) {
    auto u = static_cast<std::size_t>(i);
    put<std::uint32_t>(b, kDims + 4 * u, static_cast<std::uint32_t>(f.dims[i]));
    put<std::uint32_t>(b, kBox + 4 * u, f.box[i]);
    put<std::uint32_t>(b, kElemStrides + 4 * u, f.elem_strides[i]);
    if (i + 1 < f.rank) put<std::uint64_t>(b, kStrides + 8 * u, f.strides[i]);
  }
  put<std::uint32_t>(b, kInterleave, static_cast<std::uint32_t>(f.interleave));
  put<std::uint32_t>(b, kSwizzle, static_cast<std::uint32_t>(f.swizzle));
  put<std::uint32_t>(b, kFill, static_cast<std::uint32_t>(f.fill));
  return out;
}

tmap::TensorMapFields decode_tensor_map(const std::uint8_t* b) {
  tmap::TensorMapFields f;
  f.address = get<std::uint64_t>(b, kAddress);
  std::uint32_t rank = get<std::uint32_t>(b, kRank);
  f.rank = rank >= static_cast<std::uint32_t>(tmap::kMaxRank) ? tmap::kMaxRank + 1 : static_cast<int>(rank) + 1;
  f.dtype = static_cast<tmap::DataType>(get<std::uint32_t>(b, kType));
  for (int i = 0; i < f.rank && i < tmap::kMaxRank; ++i) {
    auto u = static_cast<std::size_t>(i);
    f.dims[i] = get<std::uint32_t>(b, kDims + 4 * u);
    f.box[i] = get<std::uint32_t>(b, kBox + 4 * u);
    f.elem_strides[i] = get<std::uint32_t>(b, kElemStrides + 4 * u);
    if (i < tmap::kMaxRank - 1) f.strides[i] = get<std::uint64_t>(b, kStrides + 8 * u);
  }
  f.interleave = static_cast<tmap::Interleave>(get<std::uint32_t>(b, kInterleave));
  f.swizzle = static_cast<tmap::Swizzle>(get<std::uint32_t>(b, kSwizzle));
  f.fill = static_cast<tmap::Fill>(get<std::uint32_t>(b, kFill));
  return f;
}

bool replace_tensor_map_field(std::uint8_t* b, MapField field, std::uint32_t ord, std::uint64_t value,
                              std::string& error) {
  const bool per_dim = field == MapField::BoxDim || field == MapField::GlobalDim || field == MapField::ElementStride;
  const std::uint32_t limit = field == MapField::GlobalStride ? tmap::kMaxRank - 1 : tmap::kMaxRank;
  if ((per_dim || field == MapField::GlobalStride) && ord >= limit) {
    error = "ordinal " + std::to_string(ord) + " out of range (0.." + std::to_string(limit - 1) + ")";
    return false;
  }
  const auto v32 = static_cast<std::uint32_t>(value);
  switch (field) {
    case MapField::GlobalAddress: put<std::uint64_t>(b, kAddress, value); break;
    case MapField::Rank: put<std::uint32_t>(b, kRank, v32); break;
    case MapField::BoxDim: put<std::uint32_t>(b, kBox + 4 * ord, v32); break;
    case MapField::GlobalDim: put<std::uint32_t>(b, kDims + 4 * ord, v32); break;
    case MapField::GlobalStride: put<std::uint64_t>(b, kStrides + 8 * ord, value); break;
    case MapField::ElementStride: put<std::uint32_t>(b, kElemStrides + 4 * ord, v32); break;
    case MapField::ElemType: {
      // PTX numbers the element types its own way (the PTX ISA's tensormap.replace table, and
      // Triton's TMA_ELEMENT_TYPES): 8 f32.ftz, 9 f64, 10 bf16, where the driver's
      // CUtensorMapDataType, which the 128 bytes hold, has 8 f64, 9 bf16, 10 f32.ftz.
      const std::uint32_t driver = v32 == 8 ? 10 : v32 == 9 ? 8 : v32 == 10 ? 9 : v32;
      put<std::uint32_t>(b, kType, driver);
      break;
    }
    case MapField::InterleaveLayout: put<std::uint32_t>(b, kInterleave, v32); break;
    case MapField::SwizzleMode: put<std::uint32_t>(b, kSwizzle, v32); break;
    case MapField::SwizzleAtomicity: put<std::uint32_t>(b, kAtomicity, v32); break;
    case MapField::FillMode: put<std::uint32_t>(b, kFill, v32); break;
    case MapField::None: error = "no field"; return false;
  }
  return true;
}

}  // namespace warpscope::emu
