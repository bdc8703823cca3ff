// tma_global_map.cu: a tensor map edited where it lives, in global memory, as CUTLASS's
// grouped GEMMs retarget a map per problem (tensormap.replace.tile.*.global): the first warp
// zeroes this block's 128-byte slot of `maps` (4 bytes a lane), lane 0 fills its fields,
// fence.proxy.tensormap::generic release/acquire make the edits visible to the TMA unit, and
// thread 0 loads one 64 x 32 f16 box (128-byte rows, no swizzle) of `in` through it. A thread
// that finds an element not where it belongs stores it to `bad` (MISMATCH: 0 requests on the
// H200). ptxas writes each replace as LDG/STG of the map's words (docs/hopper.md).
//
//   in: f16 [height][64]; element (x, y) = (y * 64 + x) % 2039 (data/f16_mod2039.bin)
//   maps: 128 bytes per block, 128-byte aligned; bad: u32 [grid][2048]
// Launch: grid (height / 32), block 128, dynamic shared memory 4096 + 128 + 16.
// Compile: nvcc -arch=sm_90a -lineinfo -ptx (tensormap.replace needs sm_90a).
#include <cuda_fp16.h>

#include "hopper_ptx.cuh"

extern "C" __global__ void tma_global_map(const __half* in, unsigned char* maps, unsigned* bad, int height) {
  extern __shared__ __align__(128) unsigned char smem_raw[];
  unsigned char* box = smem_raw;
  uint64_t* bar = reinterpret_cast<uint64_t*>(smem_raw + 4096 + 128);
  unsigned char* map = maps + blockIdx.x * 128;
  if (threadIdx.x < 32) reinterpret_cast<uint32_t*>(map)[threadIdx.x] = 0;
  __syncwarp();
  if (threadIdx.x == 0) {
    asm volatile("tensormap.replace.tile.global_address.global.b1024.b64 [%0], %1;" ::"l"(map), "l"(in) : "memory");
    asm volatile("tensormap.replace.tile.rank.global.b1024.b32 [%0], 1;" ::"l"(map) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 0, 64;" ::"l"(map) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.global.b1024.b32 [%0], 1, 32;" ::"l"(map) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 0, 64;" ::"l"(map) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.global.b1024.b32 [%0], 1, %1;" ::"l"(map), "r"(height) : "memory");
    asm volatile("tensormap.replace.tile.global_stride.global.b1024.b64 [%0], 0, %1;" ::"l"(map), "l"(128ull) : "memory");
    asm volatile("tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 0, 1;" ::"l"(map) : "memory");
    asm volatile("tensormap.replace.tile.element_stride.global.b1024.b32 [%0], 1, 1;" ::"l"(map) : "memory");
    asm volatile("tensormap.replace.tile.elemtype.global.b1024.b32 [%0], 6;" ::"l"(map) : "memory");  // f16
    asm volatile("tensormap.replace.tile.interleave_layout.global.b1024.b32 [%0], 0;" ::"l"(map) : "memory");
    asm volatile("tensormap.replace.tile.swizzle_mode.global.b1024.b32 [%0], 0;" ::"l"(map) : "memory");  // none
    asm volatile("tensormap.replace.tile.fill_mode.global.b1024.b32 [%0], 0;" ::"l"(map) : "memory");
    asm volatile("fence.proxy.tensormap::generic.release.gpu;" ::: "memory");
    asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(map) : "memory");
    mbar_init(bar, 1);
    fence_mbarrier_init();
  }
  __syncthreads();
  const int y0 = blockIdx.x * 32;
  if (threadIdx.x == 0) {
    mbar_arrive_expect_tx(bar, 4096);
    tma_load_2d(box, map, bar, 0, y0);
  }
  mbar_wait(bar, 0);
  for (int c = threadIdx.x; c < 256; c += 128) {  // 16-byte chunk c: row c / 8, elements (c % 8) * 8 ..
    const uint4 q = *reinterpret_cast<const uint4*>(box + c * 16);
    const __half* v = reinterpret_cast<const __half*>(&q);
    for (int e = 0; e < 8; ++e) {
      const unsigned want = static_cast<unsigned>(((y0 + c / 8) * 64 + (c % 8) * 8 + e) % 2039);
      const unsigned got = static_cast<unsigned>(__half2float(v[e]));
      if (got != want) bad[blockIdx.x * 2048 + c * 8 + e] = got;  // MISMATCH: 0 requests on the H200
    }
  }
}
