// fragment_io.h: moving matrix fragments between a warp's registers and dense matrices.
// Internal to the tensor executors (exec_mma.cc, exec_wmma.cc, exec_wgmma.cc).
//
// A fragment's elements are packed into its registers low element first (two f16 to a
// .b32, four s8, eight s4; one f64 per register). Dense matrices are row-major arrays of
// the numeric domain the product runs in: float (f16, bf16, tf32, f32, fp8), int32 (s8,
// u8, s4, u4, s32) or double (f64).
#pragma once

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

#include "emu/lanes.h"
#include "emu/mma_fragments.h"
#include "emu/tensor_values.h"
#include "emu/warp.h"

namespace warpscope::emu {

enum class Domain : std::uint8_t { Float, Int, Double };

inline Domain domain_of(ptx::TensorType t) {
  if (t == ptx::TensorType::F64) return Domain::Double;
  return is_integer(t) ? Domain::Int : Domain::Float;
}

// Raw bits of element e of `lane`.
inline std::uint64_t read_element(const FragmentLayout& f, const Warp& w, const std::vector<std::uint32_t>& rows,
                                  int lane, int e) {
  const int per = f.per_register();
  const std::uint64_t v = w.rows[static_cast<std::size_t>(rows[static_cast<std::size_t>(e / per)]) * 32 + lane];
  if (f.bits == 64) return v;
  return (v >> ((e % per) * f.bits)) & ((1ull << f.bits) - 1);
}

// Gathers the fragment (lane, element) -> out[row * ld + col] + row0 rows down, decoding
// `type`. Entries the fragment does not cover are left as they were.
template <class T>
void gather(const FragmentLayout& f, ptx::TensorType type, const Warp& w, const std::vector<std::uint32_t>& rows,
            T* out, int ld, int row0 = 0) {
  const int per = f.per_register(), nregs = f.registers();
  const std::uint64_t mask = f.bits == 64 ? ~0ull : (1ull << f.bits) - 1;
  // Matrix indices: the layout's own when the matrix is exactly its size, else from (row, col).
  const bool dense = ld == f.cols && f.flat.size() == f.coord.size();
  T* const base = out + static_cast<std::ptrdiff_t>(row0) * ld;
  auto loops = [&](auto decode) {
    for (int r = 0; r < nregs; ++r) {
      const std::uint64_t* reg = w.rows + static_cast<std::size_t>(rows[static_cast<std::size_t>(r)]) * 32;
      const int n = std::min(per, f.elements - r * per);
      for (int lane = 0; lane < 32; ++lane) {
        const std::uint64_t v = reg[lane];
        const std::size_t at = static_cast<std::size_t>(lane * f.elements + r * per);
        if (dense) {
          const std::uint16_t* idx = &f.flat[at];
          for (int j = 0; j < n; ++j) base[idx[j]] = decode((v >> (j * f.bits)) & mask);
        } else {
          const FragmentLayout::Coord* c = &f.coord[at];
          for (int j = 0; j < n; ++j) base[c[j].row * ld + c[j].col] = decode((v >> (j * f.bits)) & mask);
        }
      }
    }
  };
  if constexpr (std::is_same_v<T, double>) {
    loops([](std::uint64_t b) { return std::bit_cast<double>(b); });
  } else if constexpr (std::is_same_v<T, float>) {
    with_float_decoder(type, [&](auto d) { loops([d](std::uint64_t b) { return d(static_cast<std::uint32_t>(b)); }); });
  } else {
    const IntDecoder d = int_decoder(type);
    loops([d](std::uint64_t b) { return d(static_cast<std::uint32_t>(b)); });
  }
}

// Element bits of `type` for a value of the domain: f32 as IEEE bits, f16/bf16 rounded to
// nearest even, s32 as two's complement.
template <class T>
std::uint64_t encode(ptx::TensorType type, T v) {
  if constexpr (std::is_same_v<T, double>) {
    return std::bit_cast<std::uint64_t>(v);
  } else if constexpr (std::is_same_v<T, float>) {
    if (type == ptx::TensorType::F16) return float_to_half(v);
    if (type == ptx::TensorType::BF16) return float_to_bf16(v);
    return std::bit_cast<std::uint32_t>(v);
  } else {
    return static_cast<std::uint32_t>(v);
  }
}

// Writes the fragment from in[row * ld + col] (row0 rows down) into the registers `rows`;
// registers beyond the fragment's own repeat them (f16 wmma fragments).
template <class T>
void scatter(const FragmentLayout& f, ptx::TensorType type, Warp& w, const std::vector<std::uint32_t>& rows,
             const T* in, int ld, int row0 = 0) {
  const int per = f.per_register(), nregs = f.registers();
  for (int r = 0; r < nregs; ++r) {
    std::uint64_t* reg = w.rows + static_cast<std::size_t>(rows[static_cast<std::size_t>(r)]) * 32;
    const int n = std::min(per, f.elements - r * per);
    for (int lane = 0; lane < 32; ++lane) {
      const FragmentLayout::Coord* c = &f.coord[static_cast<std::size_t>(lane * f.elements + r * per)];
      std::uint64_t v = 0;
      for (int j = 0; j < n; ++j) {
        const std::uint64_t bits = encode(type, in[static_cast<std::size_t>((row0 + c[j].row) * ld + c[j].col)]);
        v |= f.bits == 64 ? bits : bits << (j * f.bits);
      }
      reg[lane] = v;
    }
  }
  for (std::size_t r = static_cast<std::size_t>(nregs); r < rows.size(); ++r)  // the repeats
    std::copy_n(w.rows + static_cast<std::size_t>(rows[r % static_cast<std::size_t>(nregs)]) * 32, 32,
                w.rows + static_cast<std::size_t>(rows[r]) * 32);
}

}  // namespace warpscope::emu
