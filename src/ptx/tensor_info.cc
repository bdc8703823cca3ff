// tensor_info.cc: decoding the modifiers of mma, wmma.* and wgmma.mma_async.
#include "ptx/tensor_info.h"

#include <charconv>

namespace warpscope::ptx {
namespace {

struct TypeName {
  std::string_view name;
  TensorType type;
};

constexpr TypeName kTypes[] = {
    {"f16", TensorType::F16},   {"bf16", TensorType::BF16}, {"tf32", TensorType::TF32},
    {"f32", TensorType::F32},   {"f64", TensorType::F64},   {"s8", TensorType::S8},
    {"u8", TensorType::U8},     {"s4", TensorType::S4},     {"u4", TensorType::U4},
    {"b1", TensorType::B1},     {"e4m3", TensorType::E4M3}, {"e5m2", TensorType::E5M2},
    {"s32", TensorType::S32},
};

// "m16n8k16" -> {16, 8, 16}.
bool parse_shape(std::string_view mod, TensorInfo& info) {
  if (mod.size() < 6 || mod[0] != 'm') return false;
  std::uint16_t dims[3] = {0, 0, 0};
  const char letters[3] = {'m', 'n', 'k'};
  const char* p = mod.data();
  const char* end = mod.data() + mod.size();
  for (int i = 0; i < 3; ++i) {
    if (p == end || *p != letters[i]) return false;
    ++p;
    auto [next, ec] = std::from_chars(p, end, dims[i]);
    if (ec != std::errc() || next == p || dims[i] == 0) return false;
    p = next;
  }
  if (p != end) return false;
  info.m = dims[0];
  info.n = dims[1];
  info.k = dims[2];
  return true;
}

}  // namespace

int tensor_type_bits(TensorType t) {
  switch (t) {
    case TensorType::None: return 0;
    case TensorType::B1: return 1;
    case TensorType::S4: case TensorType::U4: return 4;
    case TensorType::S8: case TensorType::U8: case TensorType::E4M3: case TensorType::E5M2: return 8;
    case TensorType::F16: case TensorType::BF16: return 16;
    case TensorType::TF32: case TensorType::F32: case TensorType::S32: return 32;
    case TensorType::F64: return 64;
  }
  return 0;
}

std::string_view tensor_type_name(TensorType t) {
  for (const TypeName& n : kTypes)
    if (n.type == t) return n.name;
  return "";
}

bool apply_tensor_modifier(TensorInfo& info, std::string_view mod) {
  for (const TypeName& n : kTypes)
    if (n.name == mod) {
      if (info.ntypes >= info.types.size()) return false;
      info.types[info.ntypes++] = n.type;
      return true;
    }
  if (mod == "row" || mod == "col") {
    const MatrixLayout l = mod == "row" ? MatrixLayout::Row : MatrixLayout::Col;
    if (info.layout_a == MatrixLayout::None) {
      info.layout_a = l;
    } else if (info.layout_b == MatrixLayout::None) {
      info.layout_b = l;
    } else {
      return false;
    }
    return true;
  }
  if (mod.size() == 1 && info.fragment == Fragment::None) {
    switch (mod[0]) {
      case 'a': info.fragment = Fragment::A; return true;
      case 'b': info.fragment = Fragment::B; return true;
      case 'c': info.fragment = Fragment::C; return true;
      case 'd': info.fragment = Fragment::D; return true;
      default: return false;
    }
  }
  if (mod == "satfinite") {
    info.satfinite = true;
    return true;
  }
  if (mod == "sp") {
    info.sparse = true;
    return true;
  }
  return parse_shape(mod, info);
}

}  // namespace warpscope::ptx
