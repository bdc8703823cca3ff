// tma_column_read.cu: a TMA-loaded tile read down its columns, for `warpscope fix`.
//
// Block b loads a 32 x 32 box of u32 (128-byte rows) with one TMA copy (map `in`, its
// swizzle is the tmap: argument's), waits on an mbarrier, and warp w sums column
// (w * 8 + k) for k = 0..7: lane i reads row i, so without a swizzle the 32 lanes hit one
// bank (32 wavefronts per read). Only the tensor map's swizzle modes may change this
// array's layout (a padding would break the box), and `swizzle` (0/32/64/128) tells the
// readers which XOR the map applies, so with swizzle=128B the same code reads the same
// elements at swizzled addresses.
//
// Launch: grid (tiles), block 128, dynamic shared memory 4096 + 1024 + 16.
// Parameters: in (tmap over u32 [rows][32]), out (u32 [grid][32]), swizzle bytes.
#include <cuda.h>

#include "hopper_ptx.cuh"

extern "C" __global__ void tma_column_read(const __grid_constant__ CUtensorMap in, unsigned* out, int swizzle) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* box = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  uint64_t* bar = reinterpret_cast<uint64_t*>(box + 4096);
  if (threadIdx.x == 0) {
    mbar_init(bar, 1);
    fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_arrive_expect_tx(bar, 4096);
    tma_load_2d(box, &in, bar, 0, blockIdx.x * 32);
  }
  mbar_wait(bar, 0);
  const unsigned mask = swizzle == 128 ? 7u : swizzle == 64 ? 3u : swizzle == 32 ? 1u : 0u;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned sum = 0;
  for (unsigned k = 0; k < 8; ++k) {
    const unsigned p = lane * 128 + (warp * 8 + k) * 4;  // row `lane`, column warp * 8 + k
    sum += *reinterpret_cast<const unsigned*>(box + (p ^ (((p >> 7) & mask) << 4)));
  }
  out[blockIdx.x * 128 + threadIdx.x] = sum;
}
