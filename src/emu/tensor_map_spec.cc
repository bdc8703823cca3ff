// tensor_map_spec.cc: parsing `tmap:` specs and checking tensor maps as the driver does
// (cuTensorMapEncodeTiled's requirements in cuda.h). C++17, no warpscope headers.
#include "emu/tensor_map_spec.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace warpscope::tmap {
namespace {

struct Named {
  const char* name;
  std::uint32_t value;
};

constexpr Named kTypes[] = {{"u8", 0},   {"u16", 1},  {"u32", 2},  {"s32", 3},  {"u64", 4},  {"s64", 5},
                            {"f16", 6},  {"f32", 7},  {"f64", 8},  {"bf16", 9}, {"tf32", 11}};
constexpr Named kSwizzles[] = {{"none", 0}, {"32B", 1}, {"64B", 2}, {"128B", 3}};
constexpr Named kInterleaves[] = {{"none", 0}, {"16B", 1}, {"32B", 2}};
constexpr Named kFills[] = {{"zero", 0}, {"nan", 1}};

template <std::size_t N>
bool lookup(const Named (&table)[N], const std::string& text, std::uint32_t& out) {
  for (const Named& n : table)
    if (text == n.name) {
      out = n.value;
      return true;
    }
  return false;
}

template <std::size_t N>
std::string choices(const Named (&table)[N]) {
  std::string s;
  for (const Named& n : table) s += std::string(s.empty() ? "" : ", ") + n.name;
  return s;
}

bool parse_u64(const std::string& s, std::uint64_t& out) {
  if (s.empty() || s[0] == '-' || s[0] == '+' || s[0] == ' ') return false;
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s.c_str(), &end, 0);
  if (errno != 0 || end != s.c_str() + s.size()) return false;
  out = v;
  return true;
}

// "64x8192" -> {64, 8192}
bool parse_list(const std::string& s, std::vector<std::uint64_t>& out) {
  out.clear();
  std::size_t start = 0;
  for (;;) {
    std::size_t x = s.find('x', start);
    std::uint64_t v = 0;
    if (!parse_u64(s.substr(start, x == std::string::npos ? std::string::npos : x - start), v)) return false;
    out.push_back(v);
    if (x == std::string::npos) return true;
    start = x + 1;
  }
}

std::string str(std::uint64_t v) { return std::to_string(v); }

}  // namespace

int element_bytes(DataType t) {
  switch (t) {
    case DataType::U8: return 1;
    case DataType::U16: case DataType::F16: case DataType::BF16: return 2;
    case DataType::U32: case DataType::S32: case DataType::F32: case DataType::F32Ftz: case DataType::TF32:
    case DataType::TF32Ftz: return 4;
    case DataType::U64: case DataType::S64: case DataType::F64: return 8;
  }
  return 0;
}

bool is_float(DataType t) {
  switch (t) {
    case DataType::F16: case DataType::F32: case DataType::F64: case DataType::BF16: case DataType::F32Ftz:
    case DataType::TF32: case DataType::TF32Ftz: return true;
    default: return false;
  }
}

const char* dtype_name(DataType t) {
  for (const Named& n : kTypes)
    if (n.value == static_cast<std::uint32_t>(t)) return n.name;
  if (t == DataType::F32Ftz) return "f32_ftz";
  if (t == DataType::TF32Ftz) return "tf32_ftz";
  return "?";
}

const char* swizzle_name(Swizzle s) {
  for (const Named& n : kSwizzles)
    if (n.value == static_cast<std::uint32_t>(s)) return n.name;
  return "?";
}

int swizzle_bytes(Swizzle s) {
  switch (s) {
    case Swizzle::B32: return 32;
    case Swizzle::B64: return 64;
    case Swizzle::B128: return 128;
    default: return 0;
  }
}

bool parse_tensor_map_spec(const std::string& text, TensorMapSpec& out, std::string& error) {
  out = TensorMapSpec{};
  const std::string prefix = "tmap:";
  if (text.compare(0, prefix.size(), prefix) != 0) {
    error = "a tensor map spec starts with 'tmap:'";
    return false;
  }
  std::string rest = text.substr(prefix.size());
  std::size_t comma = rest.find(',');
  out.buffer = rest.substr(0, comma);
  // The buffer spec is the --arg grammar's (arg_spec.h reads it); here only its kind.
  static const char* const kinds[] = {"buf:", "file:", "fill:", "iota:", "rand:"};
  bool buffer = false;
  for (const char* k : kinds) buffer = buffer || out.buffer.compare(0, std::string(k).size(), k) == 0;
  if (!buffer) {
    error = "the tensor's memory comes first, as a buffer spec (buf:, file:, fill:, iota:, rand:; got '" + out.buffer + "')";
    return false;
  }
  std::vector<std::uint64_t> dims, strides, box, elem;
  bool have_dtype = false, have_swizzle = false, have_strides = false, have_elem = false;
  TensorMapFields& f = out.fields;
  while (comma != std::string::npos) {
    std::size_t next = rest.find(',', comma + 1);
    std::string item = rest.substr(comma + 1, next == std::string::npos ? std::string::npos : next - comma - 1);
    comma = next;
    std::size_t eq = item.find('=');
    if (eq == std::string::npos) {
      error = "expected key=value, got '" + item + "'";
      return false;
    }
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    std::uint32_t e = 0;
    if (key == "dtype") {
      if (!lookup(kTypes, value, e)) {
        error = "dtype '" + value + "' is not one of " + choices(kTypes);
        return false;
      }
      f.dtype = static_cast<DataType>(e);
      have_dtype = true;
    } else if (key == "swizzle") {
      if (!lookup(kSwizzles, value, e)) {
        error = "swizzle '" + value + "' is not one of " + choices(kSwizzles);
        return false;
      }
      f.swizzle = static_cast<Swizzle>(e);
      have_swizzle = true;
    } else if (key == "interleave") {
      if (!lookup(kInterleaves, value, e)) {
        error = "interleave '" + value + "' is not one of " + choices(kInterleaves);
        return false;
      }
      f.interleave = static_cast<Interleave>(e);
    } else if (key == "fill") {
      if (!lookup(kFills, value, e)) {
        error = "fill '" + value + "' is not one of " + choices(kFills);
        return false;
      }
      f.fill = static_cast<Fill>(e);
    } else if (key == "dims" || key == "strides" || key == "box" || key == "elemstrides") {
      std::vector<std::uint64_t>& list = key == "dims" ? dims : key == "strides" ? strides : key == "box" ? box : elem;
      if (!parse_list(value, list)) {
        error = key + " '" + value + "' is not a list of numbers like 64x128";
        return false;
      }
      if (key == "strides") have_strides = true;
      if (key == "elemstrides") have_elem = true;
    } else {
      error = "unknown key '" + key + "' (dtype, dims, strides, box, swizzle, elemstrides, interleave, fill)";
      return false;
    }
  }
  if (!have_dtype || dims.empty() || box.empty() || !have_swizzle) {
    error = std::string("missing ") + (!have_dtype ? "dtype=" : dims.empty() ? "dims=" : box.empty() ? "box=" : "swizzle=");
    return false;
  }
  if (dims.size() > static_cast<std::size_t>(kMaxRank)) {
    error = "a tensor map has at most 5 dimensions; dims has " + str(dims.size());
    return false;
  }
  f.rank = static_cast<int>(dims.size());
  if (!have_strides && f.rank == 1) have_strides = true;
  if (!have_strides || strides.size() != dims.size() - 1) {
    error = "strides gives the byte strides of dimensions 1.." + str(dims.size() - 1) + ": " + str(dims.size() - 1) +
            " value(s) for " + str(dims.size()) + " dims, " + str(strides.size()) + " given";
    return false;
  }
  if (box.size() != dims.size()) {
    error = "box has " + str(box.size()) + " value(s) for " + str(dims.size()) + " dims";
    return false;
  }
  if (have_elem && elem.size() != dims.size()) {
    error = "elemstrides has " + str(elem.size()) + " value(s) for " + str(dims.size()) + " dims";
    return false;
  }
  for (int i = 0; i < f.rank; ++i) {
    auto u = static_cast<std::size_t>(i);
    f.dims[i] = dims[u];
    if (box[u] > 0xffffffffull || (have_elem && elem[u] > 0xffffffffull)) {
      error = "box and elemstrides values must be at most 256 and 8";
      return false;
    }
    f.box[i] = static_cast<std::uint32_t>(box[u]);
    f.elem_strides[i] = have_elem ? static_cast<std::uint32_t>(elem[u]) : 1u;
    if (i > 0) f.strides[i - 1] = strides[u - 1];
  }
  return true;
}

bool check_tensor_map(const TensorMapFields& m, std::string& error) {
  const int esize = element_bytes(m.dtype);
  if (esize == 0) {
    error = "element type " + str(static_cast<std::uint32_t>(m.dtype)) + " is not a supported tensor-map type";
    return false;
  }
  if (m.rank < 1 || m.rank > kMaxRank) {
    error = "rank " + str(static_cast<std::uint64_t>(m.rank)) + " is outside 1..5";
    return false;
  }
  if (static_cast<std::uint32_t>(m.interleave) > 2 || static_cast<std::uint32_t>(m.swizzle) > 3 ||
      static_cast<std::uint32_t>(m.fill) > 1) {
    error = "interleave, swizzle or fill mode out of range";
    return false;
  }
  if (m.interleave != Interleave::None && m.rank < 3) {
    error = "an interleaved layout needs rank 3 or more, not " + str(static_cast<std::uint64_t>(m.rank));
    return false;
  }
  const std::uint64_t align = m.interleave == Interleave::B32 ? 32 : 16;
  if (m.address % align != 0) {
    error = "the global address 0x" + [&] {
      char b[24];
      std::snprintf(b, sizeof b, "%llx", static_cast<unsigned long long>(m.address));
      return std::string(b);
    }() + " is not " + str(align) + "-byte aligned";
    return false;
  }
  for (int i = 0; i < m.rank; ++i) {
    if (m.dims[i] == 0 || m.dims[i] > (1ull << 32)) {
      error = "dimension " + str(static_cast<std::uint64_t>(i)) + " has size " + str(m.dims[i]) +
              "; sizes are 1 to 2^32";
      return false;
    }
    if (m.box[i] == 0 || m.box[i] > 256) {
      error = "box dimension " + str(static_cast<std::uint64_t>(i)) + " is " + str(m.box[i]) + "; box sizes are 1 to 256";
      return false;
    }
    if (m.elem_strides[i] == 0 || m.elem_strides[i] > 8) {
      error = "element stride " + str(static_cast<std::uint64_t>(i)) + " is " + str(m.elem_strides[i]) +
              "; element strides are 1 to 8";
      return false;
    }
  }
  for (int i = 0; i + 1 < m.rank; ++i) {
    const std::uint64_t s = m.strides[i];
    const std::uint64_t multiple = m.interleave == Interleave::B32 ? 32 : 16;
    if (s % multiple != 0 || s >= (1ull << 40)) {
      error = "the stride of dimension " + str(static_cast<std::uint64_t>(i + 1)) + " is " + str(s) +
              " bytes; strides are multiples of " + str(multiple) + " below 2^40";
      return false;
    }
  }
  const std::uint64_t inner = static_cast<std::uint64_t>(m.box[0]) * static_cast<std::uint64_t>(esize);
  if (m.interleave == Interleave::None && inner % 16 != 0) {
    error = "the box's inner dimension is " + str(m.box[0]) + " x " + str(static_cast<std::uint64_t>(esize)) + " = " +
            str(inner) + " bytes, not a multiple of 16";
    return false;
  }
  if (m.interleave == Interleave::B32 && m.swizzle != Swizzle::B32) {
    error = "a 32B interleave needs swizzle=32B";
    return false;
  }
  const int span = swizzle_bytes(m.swizzle);
  if (m.interleave == Interleave::None && span != 0 && inner > static_cast<std::uint64_t>(span)) {
    error = "the box's inner dimension is " + str(inner) + " bytes, more than the " + swizzle_name(m.swizzle) +
            " swizzle's span of " + str(static_cast<std::uint64_t>(span)) + " bytes";
    return false;
  }
  if (m.fill == Fill::NaN && !is_float(m.dtype)) {
    error = std::string("fill=nan needs a floating-point type, not ") + dtype_name(m.dtype);
    return false;
  }
  return true;
}

}  // namespace warpscope::tmap
