// lanes.h: per-lane loops and typed views of 64-bit register slots. Internal.
//
// Every register row holds 32 lanes of 64 bits. A value of type T sits in the low bits;
// readers truncate to their width (and sign-extend signed types), so writers may leave
// anything above it.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ptx/ir.h"

namespace warpscope::emu {

template <class F>
inline void for_lanes(std::uint32_t mask, F&& f) {
  if (mask == 0xffffffffu) {
    for (int l = 0; l < 32; ++l) f(l);
  } else {
    while (mask != 0) {
      int l = std::countr_zero(mask);
      mask &= mask - 1;
      f(l);
    }
  }
}

// Set bits of a lane mask (std::popcount is a library call without -mpopcnt).
inline int lane_count(std::uint32_t m) {
  m = m - ((m >> 1) & 0x55555555u);
  m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
  return static_cast<int>((((m + (m >> 4)) & 0x0f0f0f0fu) * 0x01010101u) >> 24);
}

template <class T>
inline T from_bits(std::uint64_t v) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<float>(static_cast<std::uint32_t>(v));
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<double>(v);
  } else {
    return static_cast<T>(v);  // truncates; signed types wrap to their width
  }
}

template <class T>
inline std::uint64_t to_bits(T v) {
  if constexpr (std::is_same_v<T, float>) {
    return std::bit_cast<std::uint32_t>(v);
  } else if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(v);
  } else if constexpr (std::is_same_v<T, bool>) {
    return v ? 1u : 0u;
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<std::uint64_t>(static_cast<std::int64_t>(v));
  } else {
    return static_cast<std::uint64_t>(v);
  }
}

// Calls f(T{}) with the C++ type of an integer or float PTX type; false if none fits.
template <class F>
inline bool with_type(ptx::Type t, F&& f) {
  using ptx::Type;
  switch (t) {
    case Type::U8: f(std::uint8_t{}); return true;
    case Type::S8: f(std::int8_t{}); return true;
    case Type::B16: case Type::U16: f(std::uint16_t{}); return true;
    case Type::S16: f(std::int16_t{}); return true;
    case Type::B32: case Type::U32: f(std::uint32_t{}); return true;
    case Type::S32: f(std::int32_t{}); return true;
    case Type::B64: case Type::U64: f(std::uint64_t{}); return true;
    case Type::S64: f(std::int64_t{}); return true;
    case Type::F32: f(float{}); return true;
    case Type::F64: f(double{}); return true;
    case Type::B8: f(std::uint8_t{}); return true;
    case Type::Pred: f(bool{}); return true;
    default: return false;
  }
}

// IEEE half and bfloat16 <-> float, round to nearest even.
float half_to_float(std::uint16_t h);
std::uint16_t float_to_half(float f);
inline float bf16_to_float(std::uint16_t h) { return std::bit_cast<float>(static_cast<std::uint32_t>(h) << 16); }
std::uint16_t float_to_bf16(float f);

}  // namespace warpscope::emu
