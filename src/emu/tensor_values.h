// tensor_values.h: the element types of tensor-core operands, as numbers, and the one
// multiply-accumulate all tensor instructions share. Internal to the emulator.
//
//   decode: raw element bits (f16 0x3c00, e4m3 0x38, s8 0xff) -> float 1.0, 1.0, -1.0
//   mma_f32: D[m][n] = C[m][n] + sum_k A[m][k] * B[k][n]
//
// Arithmetic, as modelled: every product of two f16, bf16, tf32 or fp8 inputs is exact in
// f32; the products are added to the accumulator one k at a time in f32, round to nearest
// even (f16 accumulators round once more at the end). tf32 inputs use the upper 19 bits of
// their 32 (the low 13 mantissa bits are ignored, as the tensor cores do). Integer
// products are summed exactly and wrap to 32 bits (.satfinite clamps). f64 uses a fused
// multiply-add per k. The hardware adds within a k-block with more internal precision and
// its own rounding, so results may differ from it in the last bits of f32; they are
// deterministic values all the same.
#pragma once

#include <bit>
#include <cstdint>

#include "ptx/tensor_info.h"

namespace warpscope::emu {

// Raw bits of one element (its low tensor_type_bits(t) bits) as a float; f64 and s32 are
// not handled here (see decode_f64 / integers).
float decode_float(ptx::TensorType t, std::uint32_t bits);
std::int32_t decode_int(ptx::TensorType t, std::uint32_t bits);  // s8/u8/s4/u4/s32/b1
bool is_integer(ptx::TensorType t);
// A float as e4m3 or e5m2 bits (the low 8), rounded to nearest even: NaN stays NaN; beyond the
// largest finite value (448, 57344) it saturates to it with `satfinite`, else e5m2 gives
// infinity and e4m3 (which has none) NaN. `relu`: negatives (and NaN) become +0.
std::uint32_t encode_fp8(ptx::TensorType t, float value, bool satfinite, bool relu = false);

// The same as functions chosen once per operand: loops over a fragment's elements call
// one of these instead of switching on the type.
using FloatDecoder = float (*)(std::uint32_t bits);
using IntDecoder = std::int32_t (*)(std::uint32_t bits);
FloatDecoder float_decoder(ptx::TensorType t);
IntDecoder int_decoder(ptx::TensorType t);

// f16 -> f32 without branches for finite values: the 15 bits of exponent and mantissa
// moved to the f32 fields, times 2^112 (exact for normals and subnormals alike).
inline float half_bits_to_float(std::uint32_t h) {
  const std::uint32_t em = h & 0x7fffu, sign = (h & 0x8000u) << 16;
  std::uint32_t bits = std::bit_cast<std::uint32_t>(std::bit_cast<float>(em << 13) * 0x1p112f);
  if (em >= 0x7c00u) bits = 0x7f800000u | ((em & 0x3ffu) << 13);  // inf, NaN
  return std::bit_cast<float>(bits | sign);
}

// Calls f(decode) with a stateless decoder for `t` (inlined in f's loops): float for
// f16/bf16/tf32/f32/fp8, int32 for the integer types.
template <class F>
void with_float_decoder(ptx::TensorType t, F&& f) {
  switch (t) {
    case ptx::TensorType::F16: f([](std::uint32_t b) { return half_bits_to_float(b); }); break;
    case ptx::TensorType::BF16: f([](std::uint32_t b) { return std::bit_cast<float>(b << 16); }); break;
    case ptx::TensorType::TF32: f([](std::uint32_t b) { return std::bit_cast<float>(b & ~0x1fffu); }); break;
    case ptx::TensorType::F32: f([](std::uint32_t b) { return std::bit_cast<float>(b); }); break;
    default: {
      const FloatDecoder d = float_decoder(t);
      f([d](std::uint32_t b) { return d(b); });
    }
  }
}

// M x N x K products; row-major arrays: A[m*lda + k], B[k*ldb + n], D[m*ldd + n] (holds C).
void mma_f32(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* D, int ldd);
void mma_s32(int M, int N, int K, const std::int32_t* A, int lda, const std::int32_t* B, int ldb,
             std::int32_t* D, int ldd, bool satfinite);
void mma_f64(int M, int N, int K, const double* A, int lda, const double* B, int ldb, double* D, int ldd);

}  // namespace warpscope::emu
