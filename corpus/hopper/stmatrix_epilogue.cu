// stmatrix_epilogue.cu: the epilogue of a Hopper GEMM as Triton writes it: each warp
// stores its 16 x 64 slice of a 64 x 64 f16 tile to shared memory with stmatrix, the block
// makes the writes visible to the async proxy (fence.proxy.async) and one thread writes
// the tile to global memory with a TMA store (map `out`: box 64 x 64, 128-byte rows).
//
//   mode 0  stmatrix.x4 into unswizzled 128-byte rows: the 8 row addresses of a matrix
//           fall in the same 4 banks (8 wavefronts a matrix); map swizzle=none
//   mode 1  stmatrix.x4, rows swizzled as the 128B TMA swizzle lays them (16-byte chunk c
//           of row r at c ^ (r % 8)): conflict-free; map swizzle=128B
//   mode 2  stmatrix.x4.trans, 128B swizzle
//   mode 3  stmatrix.x2 (two per 16 x 16), 128B swizzle
//   mode 4  stmatrix.x1 (four per 16 x 16), 128B swizzle
//
// Launch: grid G, block 128, dynamic shared memory 8192 + 1024. Parameters: out (tmap,
// f16 [64 * G][64]), mode.
#include <cuda.h>

#include "hopper_ptx.cuh"

// The shared byte offset of (row, 16-byte chunk) of the tile.
HP_DEV uint32_t at(int row, int chunk, bool swizzled) { return row * 128 + ((swizzled ? chunk ^ (row % 8) : chunk) * 16); }

extern "C" __global__ void stmatrix_epilogue(const __grid_constant__ CUtensorMap out, int mode) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* tile = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const bool swizzled = mode != 0;
  // A fake accumulator fragment: 4 registers of two halves each per 16 x 16 tile.
  const uint32_t base = (threadIdx.x * 4u) << 16 | (threadIdx.x * 4u);
  for (int n = 0; n < 4; ++n) {  // the warp's four 16 x 16 tiles, columns 16n..16n+15
    const uint32_t r0 = base + n, r1 = base + 4 + n, r2 = base + 8 + n, r3 = base + 12 + n;
    const int row0 = 16 * warp;
    if (mode <= 2) {
      // x4: lanes 8m..8m+7 give the rows of matrix m: (rows +0/+8) x (chunks 2n, 2n+1).
      const int m = lane / 8, row = row0 + (m % 2) * 8 + lane % 8, chunk = 2 * n + m / 2;
      unsigned char* p = tile + at(row, chunk, swizzled);
      if (mode == 2)
        stmatrix_x4_trans(p, r0, r1, r2, r3);
      else
        stmatrix_x4(p, r0, r1, r2, r3);
    } else if (mode == 3) {
      for (int h = 0; h < 2; ++h) {  // x2: the left, then the right 16 x 8 half
        const int row = row0 + (lane / 8 % 2) * 8 + lane % 8, chunk = 2 * n + h;
        stmatrix_x2(tile + at(row, chunk, true), h ? r2 : r0, h ? r3 : r1);
      }
    } else {
      for (int q = 0; q < 4; ++q) {  // x1: the four 8 x 8 matrices one by one
        const int row = row0 + (q % 2) * 8 + lane % 8, chunk = 2 * n + q / 2;
        stmatrix_x1(tile + at(row, chunk, true), q == 0 ? r0 : q == 1 ? r1 : q == 2 ? r2 : r3);
      }
    }
  }
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    tma_store_2d(&out, tile, 0, blockIdx.x * 64);
    bulk_commit();
    bulk_wait_read0();
  }
}
