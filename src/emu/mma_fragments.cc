// mma_fragments.cc: the fragment tables of mma.sync (PTX ISA) and of our wmma fragments.
#include "emu/mma_fragments.h"

#include <functional>

namespace warpscope::emu {
namespace {

using ptx::TensorType;

// (lane, e) -> (row, col) within one tile.
using TileFn = std::function<void(int g, int q, int e, int& row, int& col)>;

struct Tile {
  TileFn fn;
  int elements = 0;
};

// The mma operand tiles, g = lane / 4, q = lane % 4 (PTX ISA "Matrix Fragments for mma").
Tile a_f16_k16() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * ((e >> 1) & 1); c = 2 * q + (e & 1) + 8 * (e >> 2); }, 8}; }
Tile a_f16_k8() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * (e >> 1); c = 2 * q + (e & 1); }, 4}; }
Tile b_f16_k16() { return {[](int g, int q, int e, int& r, int& c) { r = 2 * q + (e & 1) + 8 * (e >> 1); c = g; }, 4}; }
Tile b_f16_k8() { return {[](int g, int q, int e, int& r, int& c) { r = 2 * q + e; c = g; }, 2}; }
Tile c_m16n8() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * (e >> 1); c = 2 * q + (e & 1); }, 4}; }
Tile c_m8n8() { return {[](int g, int q, int e, int& r, int& c) { r = g; c = 2 * q + e; }, 2}; }
Tile a_w32_k4() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * e; c = q; }, 2}; }
Tile a_w32_k8() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * (e & 1); c = q + 4 * (e >> 1); }, 4}; }
Tile a_w32_k16() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * (e & 1); c = q + 4 * (e >> 1); }, 8}; }
Tile b_w32(int n) { return {[](int g, int q, int e, int& r, int& c) { r = q + 4 * e; c = g; }, n}; }
Tile a_i8_k16() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * (e >> 2); c = 4 * q + (e & 3); }, 8}; }
Tile a_i8_k32() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * ((e >> 2) & 1); c = 4 * q + (e & 3) + 16 * (e >> 3); }, 16}; }
Tile b_i8_k16() { return {[](int g, int q, int e, int& r, int& c) { r = 4 * q + e; c = g; }, 4}; }
Tile b_i8_k32() { return {[](int g, int q, int e, int& r, int& c) { r = 4 * q + (e & 3) + 16 * (e >> 2); c = g; }, 8}; }
Tile a_i4_k32() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * (e >> 3); c = 8 * q + (e & 7); }, 16}; }
Tile a_i4_k64() { return {[](int g, int q, int e, int& r, int& c) { r = g + 8 * ((e >> 3) & 1); c = 8 * q + (e & 7) + 32 * (e >> 4); }, 32}; }
Tile b_i4_k32() { return {[](int g, int q, int e, int& r, int& c) { r = 8 * q + e; c = g; }, 8}; }
Tile b_i4_k64() { return {[](int g, int q, int e, int& r, int& c) { r = 8 * q + (e & 7) + 32 * (e >> 3); c = g; }, 16}; }
Tile a_m8(int per_q) { return {[per_q](int g, int q, int e, int& r, int& c) { r = g; c = per_q * q + e; }, per_q}; }
Tile b_m8(int per_q) { return {[per_q](int g, int q, int e, int& r, int& c) { r = per_q * q + e; c = g; }, per_q}; }

// A tile placed in the operand matrix: at (row0, col0), transposed if `t` (its (r, c) is
// the matrix's (c, r): the m8n32k16 fragments, computed as D^T = B^T A^T).
struct Placed {
  Tile tile;
  int row0 = 0, col0 = 0;
  bool t = false;
};

FragmentLayout compose(int rows, int cols, int bits, const std::vector<Placed>& tiles) {
  FragmentLayout f;
  f.rows = rows;
  f.cols = cols;
  f.bits = bits;
  for (const Placed& p : tiles) f.elements += p.tile.elements;
  f.coord.resize(static_cast<std::size_t>(32 * f.elements));
  for (int lane = 0; lane < 32; ++lane) {
    int e0 = 0;
    for (const Placed& p : tiles) {
      for (int e = 0; e < p.tile.elements; ++e) {
        int r = 0, c = 0;
        p.tile.fn(lane / 4, lane % 4, e, r, c);
        if (p.t) std::swap(r, c);
        auto& out = f.coord[static_cast<std::size_t>(lane * f.elements + e0 + e)];
        out.row = static_cast<std::uint8_t>(p.row0 + r);
        out.col = static_cast<std::uint8_t>(p.col0 + c);
      }
      e0 += p.tile.elements;
    }
  }
  f.finish();
  return f;
}

bool is_16bit_float(TensorType t) { return t == TensorType::F16 || t == TensorType::BF16; }
bool is_8bit(TensorType t) {
  return t == TensorType::S8 || t == TensorType::U8 || t == TensorType::E4M3 || t == TensorType::E5M2;
}
bool is_4bit(TensorType t) { return t == TensorType::S4 || t == TensorType::U4; }

Error bad_shape(const std::string& what, int m, int n, int k, TensorType t) {
  return Error{what + " " + shape_name(m, n, k) + " with ." + std::string(ptx::tensor_type_name(t)) +
               " elements is not supported"};
}

// m8n8k4 .f16: four 8x8x4 products, one per quad pair (lanes 4i..4i+3 and 16+4i..16+4i+3).
FragmentLayout m8n8k4_f16(MatrixOperand which, ptx::MatrixLayout layout, int cbits) {
  FragmentLayout f;
  const bool row_major = layout == ptx::MatrixLayout::Row;
  f.bits = which == MatrixOperand::C ? cbits : 16;
  f.elements = which == MatrixOperand::C ? 8 : 4;
  f.rows = which == MatrixOperand::B ? 4 : 32;
  f.cols = which == MatrixOperand::A ? 4 : 32;
  f.coord.resize(static_cast<std::size_t>(32 * f.elements));
  for (int lane = 0; lane < 32; ++lane) {
    const int pair = (lane >> 2) & 3, high = lane >= 16 ? 4 : 0, l4 = lane % 4;
    for (int e = 0; e < f.elements; ++e) {
      int r = 0, c = 0;
      if (which == MatrixOperand::A) {
        r = row_major ? l4 + high : e % 4 + high;
        c = row_major ? e : l4;
        r += 8 * pair;
      } else if (which == MatrixOperand::B) {
        r = row_major ? l4 : e;
        c = row_major ? e + high : l4 + high;
        c += 8 * pair;
      } else if (cbits == 16) {
        r = 8 * pair + l4 + high;
        c = 8 * pair + e;
      } else {
        r = 8 * pair + (lane & 1) + (e & 2) + high;
        c = 8 * pair + (e & 4) + (lane & 2) + (e & 1);
      }
      auto& out = f.coord[static_cast<std::size_t>(lane * f.elements + e)];
      out.row = static_cast<std::uint8_t>(r);
      out.col = static_cast<std::uint8_t>(c);
    }
  }
  f.finish();
  return f;
}

}  // namespace

std::string shape_name(int m, int n, int k) {
  return "m" + std::to_string(m) + "n" + std::to_string(n) + "k" + std::to_string(k);
}

Expected<FragmentLayout> mma_layout(const ptx::TensorInfo& t, MatrixOperand which) {
  const int m = t.m, n = t.n, k = t.k;
  const TensorType a = t.type(1), c = t.type(3);
  const int cbits = ptx::tensor_type_bits(c);
  if (t.sparse) return Error{"sparse mma (mma.sp) is not supported"};
  if (which == MatrixOperand::C) {
    if (m == 8 && n == 8 && k == 4 && a == TensorType::F16) return m8n8k4_f16(which, t.layout_a, cbits);
    if (m == 16 && n == 8) return compose(16, 8, cbits, {{c_m16n8()}});
    if (m == 8 && n == 8) return compose(8, 8, cbits, {{c_m8n8()}});
    return bad_shape("mma", m, n, k, a);
  }
  const bool is_a = which == MatrixOperand::A;
  const int bits = ptx::tensor_type_bits(a);
  const int rows = is_a ? m : k, cols = is_a ? k : n;
  auto one = [&](Tile tile) -> Expected<FragmentLayout> { return compose(rows, cols, bits, {{std::move(tile)}}); };
  if (m == 8 && n == 8 && k == 4 && a == TensorType::F16)
    return m8n8k4_f16(which, is_a ? t.layout_a : t.layout_b, cbits);
  if (m == 16 && n == 8) {
    if (is_16bit_float(a) && k == 16) return one(is_a ? a_f16_k16() : b_f16_k16());
    if (is_16bit_float(a) && k == 8) return one(is_a ? a_f16_k8() : b_f16_k8());
    if ((a == TensorType::TF32 || a == TensorType::F64) && k == 4) return one(is_a ? a_w32_k4() : b_w32(1));
    if ((a == TensorType::TF32 || a == TensorType::F64) && k == 8) return one(is_a ? a_w32_k8() : b_w32(2));
    if (a == TensorType::F64 && k == 16) return one(is_a ? a_w32_k16() : b_w32(4));
    if (is_8bit(a) && k == 16) return one(is_a ? a_i8_k16() : b_i8_k16());
    if (is_8bit(a) && k == 32) return one(is_a ? a_i8_k32() : b_i8_k32());
    if (is_4bit(a) && k == 32) return one(is_a ? a_i4_k32() : b_i4_k32());
    if (is_4bit(a) && k == 64) return one(is_a ? a_i4_k64() : b_i4_k64());
  }
  if (m == 8 && n == 8) {
    if (a == TensorType::F64 && k == 4) return one(is_a ? a_m8(1) : b_m8(1));
    if ((a == TensorType::S8 || a == TensorType::U8) && k == 16) return one(is_a ? a_m8(4) : b_m8(4));
    if (is_4bit(a) && k == 32) return one(is_a ? a_m8(8) : b_m8(8));
  }
  return bad_shape("mma", m, n, k, a);
}

Expected<FragmentLayout> wmma_layout(int m, int n, int k, TensorType type, MatrixOperand which) {
  const int bits = ptx::tensor_type_bits(type);
  if (which == MatrixOperand::C) {
    if (m == 16 && n == 16 && (k == 16 || k == 8)) return compose(16, 16, bits, {{c_m16n8()}, {c_m16n8(), 0, 8}});
    if (m == 32 && n == 8 && k == 16) return compose(32, 8, bits, {{c_m16n8()}, {c_m16n8(), 16, 0}});
    if (m == 8 && n == 32 && k == 16) return compose(8, 32, bits, {{c_m16n8(), 0, 0, true}, {c_m16n8(), 0, 16, true}});
    if (m == 8 && n == 8 && k == 4) return compose(8, 8, bits, {{c_m8n8()}});
    return bad_shape("wmma", m, n, k, type);
  }
  const bool is_a = which == MatrixOperand::A;
  const int rows = is_a ? m : k, cols = is_a ? k : n;
  if (is_16bit_float(type) || (bits == 8 && (type == TensorType::S8 || type == TensorType::U8))) {
    const bool f16 = bits == 16;
    const Tile ta = f16 ? a_f16_k16() : a_i8_k16(), tb = f16 ? b_f16_k16() : b_i8_k16();
    if (k != 16) return bad_shape("wmma", m, n, k, type);
    if (m == 16 && n == 16) return is_a ? compose(rows, cols, bits, {{ta}}) : compose(rows, cols, bits, {{tb}, {tb, 0, 8}});
    if (m == 32 && n == 8) return is_a ? compose(rows, cols, bits, {{ta}, {ta, 16, 0}}) : compose(rows, cols, bits, {{tb}});
    if (m == 8 && n == 32)  // transposed: A^T is the product's B operand, B^T its A operand
      return is_a ? compose(rows, cols, bits, {{tb, 0, 0, true}})
                  : compose(rows, cols, bits, {{ta, 0, 0, true}, {ta, 0, 16, true}});
  }
  if (type == TensorType::TF32 && m == 16 && n == 16 && k == 8)
    return is_a ? compose(rows, cols, bits, {{a_w32_k8()}}) : compose(rows, cols, bits, {{b_w32(2)}, {b_w32(2), 0, 8}});
  if (type == TensorType::F64 && m == 8 && n == 8 && k == 4)
    return compose(rows, cols, bits, {{is_a ? a_m8(1) : b_m8(1)}});
  return bad_shape("wmma", m, n, k, type);
}

}  // namespace warpscope::emu
