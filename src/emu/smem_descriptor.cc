// smem_descriptor.cc: descriptor fields and the canonical layouts (see the header).
#include "emu/smem_descriptor.h"

namespace warpscope::emu {

SmemDescriptor SmemDescriptor::decode(std::uint64_t bits) {
  SmemDescriptor d;
  d.start = static_cast<std::uint32_t>(bits & 0x3fffu) << 4;
  d.leading = static_cast<std::uint32_t>((bits >> 16) & 0x3fffu) << 4;
  d.stride = static_cast<std::uint32_t>((bits >> 32) & 0x3fffu) << 4;
  d.base_offset = static_cast<std::uint32_t>((bits >> 49) & 0x7u);
  switch ((bits >> 62) & 0x3u) {
    case 1: d.swizzle = Swizzle::B128; break;
    case 2: d.swizzle = Swizzle::B64; break;
    case 3: d.swizzle = Swizzle::B32; break;
    default: d.swizzle = Swizzle::None; break;
  }
  return d;
}

std::uint64_t SmemDescriptor::encode() const {
  std::uint64_t mode = swizzle == Swizzle::B128 ? 1 : swizzle == Swizzle::B64 ? 2 : swizzle == Swizzle::B32 ? 3 : 0;
  return (static_cast<std::uint64_t>((start >> 4) & 0x3fffu)) | (static_cast<std::uint64_t>((leading >> 4) & 0x3fffu) << 16) |
         (static_cast<std::uint64_t>((stride >> 4) & 0x3fffu) << 32) | (static_cast<std::uint64_t>(base_offset & 7u) << 49) |
         (mode << 62);
}

int SmemDescriptor::chunks_per_row() const {
  switch (swizzle) {
    case Swizzle::B32: return 2;
    case Swizzle::B64: return 4;
    case Swizzle::B128: return 8;
    case Swizzle::None: break;
  }
  return 1;
}

std::uint32_t swizzle_address(std::uint32_t address, Swizzle s, std::uint32_t base_offset) {
  std::uint32_t mask = 0;
  switch (s) {
    case Swizzle::None: return address;
    case Swizzle::B32: mask = 1; break;
    case Swizzle::B64: mask = 3; break;
    case Swizzle::B128: mask = 7; break;
  }
  const std::uint32_t phase = ((address >> 7) - base_offset) & mask;
  return address ^ (phase << 4);
}

std::uint32_t chunk_address(const SmemDescriptor& d, bool mn_major, int element_bytes, int mn, int k) {
  const auto T = static_cast<std::uint32_t>(16 / element_bytes);
  const auto W = static_cast<std::uint32_t>(d.chunks_per_row());
  const auto umn = static_cast<std::uint32_t>(mn), uk = static_cast<std::uint32_t>(k);
  std::uint32_t offset = 0;
  if (!mn_major) {
    const std::uint32_t group = umn / 8, r = umn % 8, c = uk / T;
    offset = d.swizzle == Swizzle::None ? group * d.stride + c * d.leading + r * 16
                                        : group * d.stride + r * 16 * W + c * 16;
  } else {
    const std::uint32_t c = umn / T, j = uk / 8, r = uk % 8;
    offset = d.swizzle == Swizzle::None ? c * d.stride + j * d.leading + r * 16
                                        : (c / W) * d.leading + j * d.stride + r * 16 * W + (c % W) * 16;
  }
  return swizzle_address(d.start + offset, d.swizzle, d.base_offset);
}

}  // namespace warpscope::emu
