// layout.cc: the offset maps of the layout candidates.
#include "layout/layout.h"

namespace warpscope::layout {

namespace {

std::uint64_t low_mask(int bits) { return (std::uint64_t{1} << bits) - 1; }

struct Apply {
  std::uint64_t offset;
  std::uint64_t operator()(const Identity&) const { return offset; }
  std::uint64_t operator()(const Padding& p) const {
    if (p.row_bytes == 0) return offset;
    return offset / p.row_bytes * (p.row_bytes + p.pad_bytes) + offset % p.row_bytes;
  }
  std::uint64_t operator()(const Swizzle& s) const {
    const std::uint64_t source = low_mask(s.bits) << (s.base + s.shift);
    return offset ^ ((offset & source) >> s.shift);
  }
  std::uint64_t operator()(const Skew& k) const {
    if (k.row_bytes == 0 || k.elem_bytes == 0) return offset;
    const std::uint64_t columns = k.row_bytes / k.elem_bytes;
    const std::uint64_t row = offset / k.row_bytes, within = offset % k.row_bytes;
    const std::uint64_t column = (within / k.elem_bytes + row) % columns;
    return row * k.row_bytes + column * k.elem_bytes + within % k.elem_bytes;
  }
};

}  // namespace

std::uint64_t apply(const Layout& layout, std::uint64_t offset) { return std::visit(Apply{offset}, layout); }

std::uint64_t footprint(const Layout& layout, std::uint64_t size) {
  if (const auto* p = std::get_if<Padding>(&layout); p != nullptr && p->row_bytes != 0)
    return (size + p->row_bytes - 1) / p->row_bytes * (p->row_bytes + p->pad_bytes);
  return size;
}

bool swizzle_fits(const Swizzle& s, std::uint64_t size) {
  if (s.bits <= 0 || s.base < 0 || s.shift < s.bits || s.base + s.shift + s.bits > 40) return false;
  const int top = s.base + s.shift + s.bits;  // one past the highest source bit
  return size % (std::uint64_t{1} << (s.base + s.bits)) == 0 && size >= (std::uint64_t{1} << top);
}

std::string tma_mode(const Swizzle& s) {
  if (s.base != 4 || s.shift != 3) return "";
  switch (s.bits) {
    case 1: return "CU_TENSOR_MAP_SWIZZLE_32B";
    case 2: return "CU_TENSOR_MAP_SWIZZLE_64B";
    case 3: return "CU_TENSOR_MAP_SWIZZLE_128B";
    default: return "";
  }
}

std::string describe(const Layout& layout) {
  struct Describe {
    std::string operator()(const Identity&) const { return "identity"; }
    std::string operator()(const Padding& p) const {
      return "pad +" + std::to_string(p.pad_bytes) + " B per " + std::to_string(p.row_bytes) + " B row";
    }
    std::string operator()(const Swizzle& s) const {
      std::string name = "Swizzle<" + std::to_string(s.bits) + "," + std::to_string(s.base) + "," +
                         std::to_string(s.shift) + ">";
      const std::string tma = tma_mode(s);
      return tma.empty() ? name : name + " (TMA " + tma.substr(tma.rfind('_') + 1) + ")";
    }
    std::string operator()(const Skew& k) const {
      return "skew (c + r) % " + std::to_string(k.row_bytes / (k.elem_bytes == 0 ? 1 : k.elem_bytes)) + " over " +
             std::to_string(k.row_bytes) + " B rows";
    }
  };
  return std::visit(Describe{}, layout);
}

}  // namespace warpscope::layout
