// smem_descriptor.h: the shared-memory matrix descriptor of wgmma.mma_async, and the
// address of every 16-byte chunk of the operand it describes.
//
//   bits  0-13  start address >> 4        bits 32-45  stride byte offset (SBO) >> 4
//   bits 16-29  leading byte offset >> 4  bits 49-51  base offset
//   bits 62-63  swizzle: 0 none ("interleave"), 1 128B, 2 64B, 3 32B
//
// An operand is MN x K elements (A: M x K, B: N x K). Its core matrices are 8 rows of 16
// bytes. The canonical layouts (as CuTe's make_gmma_desc states them, T = elements per 16
// bytes, W = the swizzle's row width in 16-byte chunks: 1, 2, 4, 8):
//
//   K-major  none:  row r of 8-row group m, k chunk c  at  m*SBO + c*LBO + r*16
//            32/64/128B:                               at  m*SBO + r*(16W) + c*16
//   MN-major none:  mn chunk c, k row r of group j     at  c*SBO + j*LBO + r*16
//            32/64/128B: mn chunk c = W*i + w            at  i*LBO + j*SBO + r*(16W) + w*16
//
// plus the start address; a swizzle then XORs address bits [4, 4+log2 W) with bits
// [7, 7+log2 W) (CuTe Swizzle<log2 W, 4, 3>), counted from the repeating pattern's start:
// base offset b says the pattern starts b rows of 128 bytes before a 1024-byte boundary
// (PTX ISA: b = (pattern start >> 7) & 7), so the row phase is ((address >> 7) - b).
// Each swizzle mode is a bijection on its pattern (8 rows of 16W bytes).
#pragma once

#include <cstdint>

namespace warpscope::emu {

enum class Swizzle : std::uint8_t { None, B32, B64, B128 };

struct SmemDescriptor {
  std::uint32_t start = 0;       // bytes
  std::uint32_t leading = 0;     // LBO, bytes
  std::uint32_t stride = 0;      // SBO, bytes
  std::uint32_t base_offset = 0;
  Swizzle swizzle = Swizzle::None;

  static SmemDescriptor decode(std::uint64_t bits);
  std::uint64_t encode() const;
  int chunks_per_row() const;  // W: 1, 2, 4, 8
};

// The XOR swizzle of an absolute shared address (identity for Swizzle::None).
std::uint32_t swizzle_address(std::uint32_t address, Swizzle s, std::uint32_t base_offset);

// Address of the 16-byte chunk holding elements (mn, k .. k+T-1) (K-major) or
// (mn .. mn+T-1, k) (MN-major), where `mn` / `k` are multiples of T along the contiguous
// dimension; `element_bytes` gives T = 16 / element_bytes.
std::uint32_t chunk_address(const SmemDescriptor& d, bool mn_major, int element_bytes, int mn, int k);

}  // namespace warpscope::emu
