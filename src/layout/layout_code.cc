// layout_code.cc: printing layouts as CUDA declarations and index expressions.
#include "layout/layout_code.h"

#include <bit>

namespace warpscope::layout {

namespace {

std::string num(std::uint64_t v) { return std::to_string(v); }

int log2_of(std::uint64_t v) { return v == 0 ? 0 : std::countr_zero(v); }

struct Code {
  const ArrayShape& a;
  std::string type() const { return a.type.empty() ? element_type(a.elem_bytes) : a.type; }
  // An extern array keeps its declaration; the code is the index to use for element i.
  std::string dynamic(const std::string& index, std::uint64_t elements) const {
    std::string s = "extern __shared__ " + type() + " " + a.name + "[];  use " + a.name + "[" + index +
                    "] for element i";
    const std::uint64_t bytes = elements * a.elem_bytes;
    if (bytes > a.size) s += " (" + num(bytes) + " bytes: launch with " + num(bytes - a.size) + " more)";
    return s;
  }
  std::string operator()(const Identity&) const {
    if (a.dynamic) return "extern __shared__ " + type() + " " + a.name + "[];";
    return "__shared__ " + type() + " " + a.name + "[" + num(a.size / a.elem_bytes) + "];";
  }
  std::string operator()(const Padding& p) const {
    const std::uint64_t rows = (a.size + p.row_bytes - 1) / p.row_bytes, cols = p.row_bytes / a.elem_bytes;
    const std::uint64_t pad = p.pad_bytes / a.elem_bytes;
    std::string flat = "i + i / " + num(cols) + (pad == 1 ? "" : " * " + num(pad));
    if (a.dynamic) return dynamic(flat, rows * (cols + pad));
    return "__shared__ " + type() + " " + a.name + "[" + num(rows) + "][" + num(cols + pad) + "];  // 1-D: " + a.name +
           "[" + flat + "] in " + num(rows * (cols + pad)) + " elements";
  }
  std::string operator()(const Swizzle& s) const {
    const int m = s.base - log2_of(a.elem_bytes);  // M on element indices
    const std::uint64_t dst = ((std::uint64_t{1} << s.bits) - 1) << m;
    const std::uint64_t cols = std::uint64_t{1} << (m + s.shift);  // the source bits start at the row index
    const std::string rmask = num((std::uint64_t{1} << s.bits) - 1);
    const std::string row_bits = m == 0 ? "(r & " + rmask + ")" : "((r & " + rmask + ") << " + num(m) + ")";
    const std::string flat = "i ^ ((i >> " + num(s.shift) + ") & " + num(dst) + ")";
    if (a.dynamic) return dynamic(flat, a.size / a.elem_bytes);
    return a.name + "[r][c ^ " + row_bits + "]  // rows of " + num(cols) + "; 1-D: " + a.name + "[" + flat + "]";
  }
  std::string operator()(const Skew& k) const {
    const std::uint64_t cols = k.row_bytes / a.elem_bytes;
    if (a.dynamic)
      return dynamic("i / " + num(cols) + " * " + num(cols) + " + (i % " + num(cols) + " + i / " + num(cols) + ") % " +
                         num(cols),
                     a.size / a.elem_bytes);
    return a.name + "[r][(c + r) % " + num(cols) + "]  // rows of " + num(cols);
  }
};

}  // namespace

std::string element_type(std::uint64_t bytes) {
  switch (bytes) {
    case 1: return "char";
    case 2: return "__half";
    case 4: return "float";
    case 8: return "double";
    case 16: return "float4";
    default: return "char[" + num(bytes) + "]";
  }
}

std::string layout_code(const Layout& layout, const ArrayShape& array) { return std::visit(Code{array}, layout); }

std::string cute_code(const Layout& layout, const ArrayShape& array) {
  const auto* s = std::get_if<Swizzle>(&layout);
  if (s == nullptr) return "";
  const std::string bytes = "Swizzle<" + num(s->bits) + "," + num(s->base) + "," + num(s->shift) + ">";
  const int m = s->base - log2_of(array.elem_bytes);
  std::string text = "Swizzle<" + num(s->bits) + "," + num(m) + "," + num(s->shift) + "> on element offsets (" + bytes +
                     " on bytes)";
  const std::string tma = tma_mode(*s);
  return tma.empty() ? text : text + "; TMA: " + tma;
}

}  // namespace warpscope::layout
