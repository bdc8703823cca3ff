// tensor_map_spec.h: a tiled tensor map as cuTensorMapEncodeTiled takes it, the `tmap:`
// argument spec that describes one, and the driver's checks. Plain C++17 with no other
// warpscope header: tools/ptxlaunch compiles this file too, so that both accept the
// same specs and reject the same maps.
//
//   tmap:<buffer>,dtype=<type>,dims=<d0>x<d1>...,strides=<s1>x...,box=<b0>x<b1>...,
//        swizzle=<none|32B|64B|128B>[,elemstrides=<e0>x...][,interleave=<none|16B|32B>]
//        [,fill=<zero|nan>]
//   tmap:buf:1048576,dtype=f16,dims=64x8192,strides=128,box=64x128,swizzle=128B
//
// Dimensions go innermost first; strides are in bytes, for dimensions 1..rank-1 (the
// innermost is dense); <buffer> is a buf:/file: argument spec (the tensor's memory).
#pragma once

#include <cstdint>
#include <string>

namespace warpscope::tmap {

// The driver's enums (CUtensorMapDataType, CUtensorMapInterleave, CUtensorMapSwizzle,
// CUtensorMapFloatOOBfill): the values tensormap.replace writes too.
enum class DataType : std::uint32_t { U8, U16, U32, S32, U64, S64, F16, F32, F64, BF16, F32Ftz, TF32, TF32Ftz };
enum class Interleave : std::uint32_t { None, B16, B32 };
enum class Swizzle : std::uint32_t { None, B32, B64, B128 };
enum class Fill : std::uint32_t { Zero, NaN };

inline constexpr int kMaxRank = 5;

struct TensorMapFields {
  std::uint64_t address = 0;  // the tensor's global address
  DataType dtype = DataType::U8;
  int rank = 1;
  std::uint64_t dims[kMaxRank] = {1, 1, 1, 1, 1};     // elements, innermost first
  std::uint64_t strides[kMaxRank - 1] = {0, 0, 0, 0};  // bytes, of dimensions 1..rank-1
  std::uint32_t box[kMaxRank] = {1, 1, 1, 1, 1};
  std::uint32_t elem_strides[kMaxRank] = {1, 1, 1, 1, 1};
  Interleave interleave = Interleave::None;
  Swizzle swizzle = Swizzle::None;
  Fill fill = Fill::Zero;
};

struct TensorMapSpec {
  std::string buffer;  // "buf:1048576", "file:a.bin"
  TensorMapFields fields;
};

// Bytes per element (0 for a value outside the enum or a packed type).
int element_bytes(DataType t);
bool is_float(DataType t);
const char* dtype_name(DataType t);   // "f16"
const char* swizzle_name(Swizzle s);  // "128B"
int swizzle_bytes(Swizzle s);         // 0, 32, 64, 128

// Parses a spec ("tmap:" included). False with a message naming the bad part.
bool parse_tensor_map_spec(const std::string& text, TensorMapSpec& out, std::string& error);

// cuTensorMapEncodeTiled's documented requirements (the address's alignment included).
// False with a message saying which requirement failed and why.
bool check_tensor_map(const TensorMapFields& map, std::string& error);

}  // namespace warpscope::tmap
