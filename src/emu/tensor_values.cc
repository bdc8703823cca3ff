// tensor_values.cc: element decoding and the shared multiply-accumulate (see the header).
#include "emu/tensor_values.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "emu/lanes.h"

namespace warpscope::emu {
namespace {

using ptx::TensorType;

// e4m3: 1 sign, 4 exponent (bias 7), 3 mantissa bits; no infinities, S.1111.111 is NaN.
float e4m3_to_float(std::uint32_t b) {
  const float sign = (b & 0x80u) ? -1.0f : 1.0f;
  const std::uint32_t e = (b >> 3) & 0xfu, m = b & 0x7u;
  if (e == 0xf && m == 0x7) return std::numeric_limits<float>::quiet_NaN();
  if (e == 0) return sign * std::ldexp(static_cast<float>(m), -9);  // m/8 * 2^-6
  return sign * std::ldexp(static_cast<float>(8 + m), static_cast<int>(e) - 10);
}

// e5m2: 1 sign, 5 exponent (bias 15), 2 mantissa bits, IEEE-like (infinities and NaNs).
float e5m2_to_float(std::uint32_t b) {
  // The top byte of an IEEE half.
  return half_to_float(static_cast<std::uint16_t>((b & 0xffu) << 8));
}

template <TensorType kType>
const float* byte_table() {
  static const std::vector<float> table = [] {
    std::vector<float> t(256);
    for (std::uint32_t b = 0; b < 256; ++b) t[b] = kType == TensorType::E4M3 ? e4m3_to_float(b) : e5m2_to_float(b);
    return t;
  }();
  return table.data();
}

}  // namespace

std::uint32_t encode_fp8(TensorType t, float value, bool satfinite, bool relu) {
  const bool e4 = t == TensorType::E4M3;
  const float* table = e4 ? byte_table<TensorType::E4M3>() : byte_table<TensorType::E5M2>();
  const std::uint32_t nan = 0x7fu, inf = 0x7cu, max_code = e4 ? 0x7eu : 0x7bu;
  if (relu && !(value > 0.0f)) return 0u;
  if (std::isnan(value)) return nan;
  const std::uint32_t sign = std::signbit(value) ? 0x80u : 0u;
  const float a = std::fabs(value);
  // Positive codes 0..max_code increase with their value: the nearest, ties to the even code.
  std::uint32_t lo = 0, hi = max_code;
  if (a >= table[max_code]) {
    // Past the largest finite value: rounds back to it up to half its spacing beyond.
    const float limit = table[max_code] + (table[max_code] - table[max_code - 1]) / 2;
    if (satfinite || a < limit || (a == limit && (max_code & 1u) == 0)) return sign | max_code;
    return e4 ? nan : (sign | inf);
  }
  while (hi - lo > 1) {  // table[lo] <= a < table[hi]
    const std::uint32_t mid = (lo + hi) / 2;
    if (table[mid] <= a) lo = mid; else hi = mid;
  }
  const float below = a - table[lo], above = table[hi] - a;
  const std::uint32_t code = below < above ? lo : above < below ? hi : ((lo & 1u) == 0 ? lo : hi);
  return sign | code;
}

namespace {

float dec_f16(std::uint32_t b) { return half_bits_to_float(b & 0xffffu); }
float dec_bf16(std::uint32_t b) { return std::bit_cast<float>(b << 16); }
float dec_tf32(std::uint32_t b) { return std::bit_cast<float>(b & ~0x1fffu); }
float dec_f32(std::uint32_t b) { return std::bit_cast<float>(b); }
float dec_e4m3(std::uint32_t b) { return byte_table<TensorType::E4M3>()[b & 0xffu]; }
float dec_e5m2(std::uint32_t b) { return byte_table<TensorType::E5M2>()[b & 0xffu]; }
std::int32_t dec_s8(std::uint32_t b) { return static_cast<std::int8_t>(b & 0xffu); }
std::int32_t dec_u8(std::uint32_t b) { return static_cast<std::int32_t>(b & 0xffu); }
std::int32_t dec_s4(std::uint32_t b) { return static_cast<std::int32_t>((b & 0xfu) ^ 0x8u) - 8; }
std::int32_t dec_u4(std::uint32_t b) { return static_cast<std::int32_t>(b & 0xfu); }
std::int32_t dec_s32(std::uint32_t b) { return static_cast<std::int32_t>(b); }

}  // namespace

FloatDecoder float_decoder(TensorType t) {
  switch (t) {
    case TensorType::F16: return dec_f16;
    case TensorType::BF16: return dec_bf16;
    case TensorType::TF32: return dec_tf32;
    case TensorType::E4M3: return dec_e4m3;
    case TensorType::E5M2: return dec_e5m2;
    default: return dec_f32;
  }
}

IntDecoder int_decoder(TensorType t) {
  switch (t) {
    case TensorType::S8: return dec_s8;
    case TensorType::U8: return dec_u8;
    case TensorType::S4: return dec_s4;
    case TensorType::U4: return dec_u4;
    default: return dec_s32;
  }
}

bool is_integer(TensorType t) {
  switch (t) {
    case TensorType::S8: case TensorType::U8: case TensorType::S4: case TensorType::U4: case TensorType::B1:
    case TensorType::S32:
      return true;
    default:
      return false;
  }
}

float decode_float(TensorType t, std::uint32_t bits) {
  switch (t) {
    case TensorType::F16: return dec_f16(bits);
    case TensorType::BF16: return bf16_to_float(static_cast<std::uint16_t>(bits));
    case TensorType::TF32: return std::bit_cast<float>(bits & ~0x1fffu);
    case TensorType::F32: return std::bit_cast<float>(bits);
    case TensorType::E4M3: return e4m3_to_float(bits);
    case TensorType::E5M2: return e5m2_to_float(bits);
    default: return static_cast<float>(decode_int(t, bits));
  }
}

std::int32_t decode_int(TensorType t, std::uint32_t bits) {
  switch (t) {
    case TensorType::S8: return static_cast<std::int8_t>(bits & 0xffu);
    case TensorType::U8: return static_cast<std::int32_t>(bits & 0xffu);
    case TensorType::S4: return static_cast<std::int32_t>((bits & 0xfu) ^ 0x8u) - 8;
    case TensorType::U4: return static_cast<std::int32_t>(bits & 0xfu);
    case TensorType::B1: return static_cast<std::int32_t>(bits & 1u);
    default: return static_cast<std::int32_t>(bits);
  }
}

void mma_f32(int M, int N, int K, const float* A, int lda, const float* B, int ldb, float* D, int ldd) {
  for (int m = 0; m < M; ++m) {
    float* d = D + static_cast<std::ptrdiff_t>(m) * ldd;
    const float* a = A + static_cast<std::ptrdiff_t>(m) * lda;
    for (int k = 0; k < K; ++k) {
      const float x = a[k];
      const float* b = B + static_cast<std::ptrdiff_t>(k) * ldb;
      // Each d[n] adds its products in k order; the loop over n vectorizes.
      for (int n = 0; n < N; ++n) d[n] += x * b[n];
    }
  }
}

void mma_s32(int M, int N, int K, const std::int32_t* A, int lda, const std::int32_t* B, int ldb, std::int32_t* D,
             int ldd, bool satfinite) {
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      std::int64_t sum = D[m * ldd + n];
      for (int k = 0; k < K; ++k)
        sum += static_cast<std::int64_t>(A[m * lda + k]) * B[k * ldb + n];
      if (satfinite) {
        sum = std::clamp<std::int64_t>(sum, std::numeric_limits<std::int32_t>::min(),
                                       std::numeric_limits<std::int32_t>::max());
      }
      D[m * ldd + n] = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(sum)));
    }
}

void mma_f64(int M, int N, int K, const double* A, int lda, const double* B, int ldb, double* D, int ldd) {
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      double acc = D[m * ldd + n];
      for (int k = 0; k < K; ++k) acc = std::fma(A[m * lda + k], B[k * ldb + n], acc);
      D[m * ldd + n] = acc;
    }
}

}  // namespace warpscope::emu
