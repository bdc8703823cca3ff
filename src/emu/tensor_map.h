// tensor_map.h: the 128 bytes of a CUtensorMap as warpscope's emulator keeps them.
//
// Only the emulator reads these bytes (a kernel treats a tensor map as opaque), so the
// layout is ours: the fields of cuTensorMapEncodeTiled at fixed places, each holding the
// value tensormap.replace writes (rank - 1, the driver's enum values), so that a map
// zeroed and then filled field by field on the device (Triton's tl.make_tensor_descriptor)
// reads the same as one encoded on the host (a `tmap:` argument).
//
//   0 u64 global address       8 u32 rank - 1       12 u32 element type
//  16 u32 global dims [5]     36 u32 box dims [5]   56 u32 element strides [5]
//  76 u32 interleave          80 u32 swizzle        84 u32 fill       88 u32 swizzle atomicity
//  92 u32 (unused)            96 u64 global strides [4] (bytes, of dimensions 1..4)
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "emu/tensor_map_spec.h"
#include "ptx/async_variant.h"

namespace warpscope::emu {

inline constexpr std::size_t kTensorMapBytes = 128;
using TensorMapBytes = std::array<std::uint8_t, kTensorMapBytes>;

TensorMapBytes encode_tensor_map(const tmap::TensorMapFields& fields);
tmap::TensorMapFields decode_tensor_map(const std::uint8_t* bytes);

// tensormap.replace.tile.<field> [map], {ord,} value on the 128 bytes. False (with a
// message) for an ordinal out of range.
bool replace_tensor_map_field(std::uint8_t* bytes, ptx::async::MapField field, std::uint32_t ordinal,
                              std::uint64_t value, std::string& error);

}  // namespace warpscope::emu
