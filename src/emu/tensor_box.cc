// tensor_box.cc: TMA box geometry (see tensor_box.h).
#include "emu/tensor_box.h"

#include <algorithm>

namespace warpscope::emu {

BoxShape box_shape(const tmap::TensorMapFields& m) {
  BoxShape s;
  s.rank = m.rank;
  s.element_bytes = static_cast<std::uint32_t>(tmap::element_bytes(m.dtype));
  s.rows = 1;
  for (int i = 0; i < m.rank; ++i) {
    // Dimension 0 takes no element stride unless the layout is interleaved.
    std::uint32_t e = (i == 0 && m.interleave == tmap::Interleave::None) ? 1u : m.elem_strides[i];
    s.n[i] = (m.box[i] + e - 1) / e;
    if (i > 0) s.rows *= s.n[i];
  }
  s.row_bytes = s.n[0] * s.element_bytes;
  return s;
}

std::vector<BoxRow> box_rows(const tmap::TensorMapFields& m, const BoxShape& s, const std::int32_t* c) {
  std::vector<BoxRow> rows(s.rows);
  // Dimension 0: the in-bounds elements of every row.
  const std::int64_t c0 = c[0];
  const auto d0 = static_cast<std::int64_t>(m.dims[0]);
  std::int64_t lo = c0 < 0 ? -c0 : 0;
  std::int64_t hi = std::min<std::int64_t>(s.n[0], d0 - c0);
  if (hi < lo) hi = lo;
  std::uint32_t k[tmap::kMaxRank] = {0, 0, 0, 0, 0};
  for (std::uint64_t r = 0; r < s.rows; ++r) {
    BoxRow& row = rows[r];
    row.index = r;
    bool inside = hi > lo;
    std::uint64_t offset = static_cast<std::uint64_t>(c0 + lo) * s.element_bytes;
    for (int i = 1; i < m.rank && inside; ++i) {
      std::int64_t coord = static_cast<std::int64_t>(c[i]) + static_cast<std::int64_t>(k[i]) * m.elem_strides[i];
      if (coord < 0 || coord >= static_cast<std::int64_t>(m.dims[i])) inside = false;
      offset += static_cast<std::uint64_t>(coord) * m.strides[i - 1];
    }
    if (inside) {
      row.lo = static_cast<std::uint32_t>(lo);
      row.hi = static_cast<std::uint32_t>(hi);
      row.global = m.address + offset;
    }
    for (int i = 1; i < m.rank; ++i) {  // next row: dimension 1 fastest
      if (++k[i] < s.n[i]) break;
      k[i] = 0;
    }
  }
  return rows;
}

std::uint64_t box_sectors(const std::vector<BoxRow>& rows, std::uint32_t element_bytes) {
  std::uint64_t sectors = 0;
  for (const BoxRow& r : rows) {
    if (r.hi <= r.lo) continue;
    std::uint64_t end = r.global + static_cast<std::uint64_t>(r.hi - r.lo) * element_bytes;
    sectors += (end - 1) / 32 - r.global / 32 + 1;
  }
  return sectors;
}

std::uint64_t box_load_sectors(const std::vector<BoxRow>& rows, const BoxShape& shape) {
  std::uint64_t sectors = box_sectors(rows, shape.element_bytes);
  for (const BoxRow& r : rows) {
    const std::uint64_t inside = r.hi > r.lo ? static_cast<std::uint64_t>(r.hi - r.lo) * shape.element_bytes : 0;
    sectors += (shape.row_bytes - std::min<std::uint64_t>(inside, shape.row_bytes) + 31) / 32;
  }
  return sectors;
}

std::uint64_t box_ideal_sectors(const std::vector<BoxRow>& rows, std::uint32_t element_bytes) {
  std::uint64_t sectors = 0;
  for (const BoxRow& r : rows) sectors += (static_cast<std::uint64_t>(r.hi - r.lo) * element_bytes + 31) / 32;
  return sectors;
}

std::uint64_t fill_pattern(const tmap::TensorMapFields& m) {
  if (m.fill != tmap::Fill::NaN) return 0;
  switch (tmap::element_bytes(m.dtype)) {
    case 2: return 0x7fffu;
    case 4: return 0x7fffffffu;
    default: return 0x7fffffffffffffffull;
  }
}

}  // namespace warpscope::emu
