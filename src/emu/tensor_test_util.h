// tensor_test_util.h: random tensor-core operands for the tests: elements of each type
// whose products and sums are exact, and their values written from the type definitions.
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <random>
#include <vector>

#include "emu/lanes.h"
#include "ptx/tensor_info.h"

namespace warpscope::emu::testing {

using ptx::TensorType;
using T = TensorType;

inline std::uint16_t to_half(double v) { return float_to_half(static_cast<float>(v)); }
inline std::uint16_t to_bf16(double v) { return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(static_cast<float>(v)) >> 16); }

// e4m3 / e5m2 values written from their definitions (not the emulator's decoder).
inline double e4m3_value(std::uint32_t b) {
  const int e = static_cast<int>((b >> 3) & 15), m = static_cast<int>(b & 7);
  const double v = e == 0 ? std::ldexp(m / 8.0, -6) : std::ldexp(1 + m / 8.0, e - 7);
  return (b & 0x80) ? -v : v;
}
inline double e5m2_value(std::uint32_t b) {
  const int e = static_cast<int>((b >> 2) & 31), m = static_cast<int>(b & 3);
  const double v = e == 0 ? std::ldexp(m / 4.0, -14) : std::ldexp(1 + m / 4.0, e - 15);
  return (b & 0x80) ? -v : v;
}

// A random element of `type`: its bits and the value the tensor core multiplies.
struct Element {
  std::uint64_t bits = 0;
  double value = 0;
};

inline Element random_element(TensorType t, std::mt19937& rng) {
  std::uniform_int_distribution<int> small(-8, 8);
  Element e;
  switch (t) {
    case T::F16: e.value = small(rng); e.bits = to_half(e.value); break;
    case T::BF16: e.value = small(rng); e.bits = to_bf16(e.value); break;
    case T::F32: e.value = small(rng) * 0.5; e.bits = std::bit_cast<std::uint32_t>(static_cast<float>(e.value)); break;
    case T::TF32: {
      // A value with few mantissa bits, then noise in the 13 bits the tensor core ignores.
      e.value = small(rng) * 0.25;
      e.bits = std::bit_cast<std::uint32_t>(static_cast<float>(e.value));
      if (e.value != 0) e.bits |= rng() & 0x1fffu;
      break;
    }
    case T::F64: e.value = small(rng) * 0.5; e.bits = std::bit_cast<std::uint64_t>(e.value); break;
    case T::E4M3: {  // exponents 6..9 (0.5 .. 15): every product and sum stays exact in f32
      e.bits = (rng() & 0x80u) | ((6u + rng() % 4u) << 3) | (rng() & 7u);
      e.value = e4m3_value(static_cast<std::uint32_t>(e.bits));
      break;
    }
    case T::E5M2: {
      e.bits = (rng() & 0x80u) | ((14u + rng() % 4u) << 2) | (rng() & 3u);
      e.value = e5m2_value(static_cast<std::uint32_t>(e.bits));
      break;
    }
    case T::S8: e.bits = rng() & 0xffu; e.value = static_cast<std::int8_t>(e.bits); break;
    case T::U8: e.bits = rng() & 0xffu; e.value = static_cast<double>(e.bits); break;
    case T::S4: e.bits = rng() & 0xfu; e.value = static_cast<double>(static_cast<int>(e.bits ^ 8u) - 8); break;
    case T::U4: e.bits = rng() & 0xfu; e.value = static_cast<double>(e.bits); break;
    case T::S32: e.value = static_cast<int>(rng() % 2001) - 1000; e.bits = static_cast<std::uint32_t>(static_cast<std::int32_t>(e.value)); break;
    default: ADD_FAILURE() << "no random elements of this type"; break;
  }
  return e;
}

inline std::uint64_t encode_value(TensorType t, double v) {
  switch (t) {
    case T::F16: return to_half(v);
    case T::F32: return std::bit_cast<std::uint32_t>(static_cast<float>(v));
    case T::F64: return std::bit_cast<std::uint64_t>(v);
    case T::S32: return static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<std::int64_t>(v)));
    default: ADD_FAILURE(); return 0;
  }
}

struct Matrix {
  int rows = 0, cols = 0;
  std::vector<Element> e;
  Element& at(int r, int c) { return e[static_cast<std::size_t>(r * cols + c)]; }
};

inline Matrix random_matrix(int rows, int cols, TensorType t, std::mt19937& rng) {
  Matrix m{rows, cols, {}};
  for (int i = 0; i < rows * cols; ++i) m.e.push_back(random_element(t, rng));
  return m;
}


}  // namespace warpscope::emu::testing
