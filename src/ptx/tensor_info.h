// tensor_info.h: the modifiers of a tensor-core instruction (mma, wmma.*, wgmma.mma_async),
// decoded once by the parser. Their element types have no ptx::Type (e4m3, s4, ...) and an
// instruction names up to four of them, so they are kept here, in the order written:
//
//   mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32
//     -> shape {16, 8, 16}, layout_a Row, layout_b Col, types {F32, BF16, BF16, F32} (d, a, b, c)
//   wmma.load.a.sync.aligned.row.m16n16k16.shared.f16
//     -> fragment A, layout_a Row, shape {16, 16, 16}, types {F16} (inst.space = Shared)
//   wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32          (f16 inputs implied)
//     -> types {F32, F32} (d, c)
//   wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
//     -> shape {64, 256, 16}, types {F32, F16, F16} (d, a, b)
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace warpscope::ptx {

enum class TensorType : std::uint8_t {
  None, F16, BF16, TF32, F32, F64, S8, U8, S4, U4, B1, E4M3, E5M2, S32
};
enum class MatrixLayout : std::uint8_t { None, Row, Col };
enum class Fragment : std::uint8_t { None, A, B, C, D };

struct TensorInfo {
  std::uint16_t m = 0, n = 0, k = 0;
  MatrixLayout layout_a = MatrixLayout::None;  // wmma.load/store: the memory layout
  MatrixLayout layout_b = MatrixLayout::None;
  Fragment fragment = Fragment::None;          // wmma.load/store
  std::array<TensorType, 4> types{};
  std::uint8_t ntypes = 0;
  bool satfinite = false;
  bool sparse = false;  // mma.sp / wgmma .sp: not emulated

  TensorType type(int i) const { return i < ntypes ? types[static_cast<std::size_t>(i)] : TensorType::None; }
};

int tensor_type_bits(TensorType t);           // e4m3 -> 8, s4 -> 4, f64 -> 64
std::string_view tensor_type_name(TensorType t);  // "e4m3"

// One dot-separated modifier of a tensor instruction; false if it is none of them.
bool apply_tensor_modifier(TensorInfo& info, std::string_view mod);

}  // namespace warpscope::ptx
