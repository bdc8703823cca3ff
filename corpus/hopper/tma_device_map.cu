// tma_device_map.cu: a tensor map built on the device, as Triton's tl.make_tensor_descriptor
// does: the first warp zeroes 128 bytes of shared memory (4 bytes a lane), lane 0 fills
// them with tensormap.replace.tile.* (address, rank, box, dims, strides,
// element strides, type, interleave, swizzle, fill), copies them to this block's slot of
// a global scratch buffer with tensormap.cp_fenceproxy, makes them visible to the TMA
// unit (fence.proxy.tensormap::generic.acquire), prefetches the map, then loads a 64 x 32
// f16 box (128-byte rows, 128B swizzle) and stores it back to `out` through a second map
// built the same way. A thread that finds a box element not where the swizzle puts it
// stores it to `bad` (MISMATCH: 0 requests on the H200).
//
//   in, out: f16 [height][64] (width 64 = 128 bytes); element (x, y) = (y * 64 + x) % 2039
//   scratch: 256 bytes per block (two maps), 64-byte aligned
// Launch: grid (height / 32), block 128, dynamic shared memory 4096 + 1024 + 256 + 16.
// Compile: nvcc -arch=sm_90a -lineinfo -ptx (tensormap.replace needs sm_90a).
#include <cuda_fp16.h>

#include "hopper_ptx.cuh"

HP_DEV void build_map(unsigned char* smem_map, const void* global_tensor, int height) {
  const uint32_t m = smem_u32(smem_map);
  if (threadIdx.x < 32) *reinterpret_cast<uint32_t*>(smem_map + 4 * threadIdx.x) = 0;
  __syncwarp();
  if (threadIdx.x == 0) {
    asm volatile("tensormap.replace.tile.global_address.shared::cta.b1024.b64 [%0], %1;" ::"r"(m), "l"(global_tensor) : "memory");
    asm volatile("tensormap.replace.tile.rank.shared::cta.b1024.b32 [%0], 1;" ::"r"(m) : "memory");  // rank - 1
    asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 0, 64;" ::"r"(m) : "memory");
    asm volatile("tensormap.replace.tile.box_dim.shared::cta.b1024.b32 [%0], 1, 32;" ::"r"(m) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 0, 64;" ::"r"(m) : "memory");
    asm volatile("tensormap.replace.tile.global_dim.shared::cta.b1024.b32 [%0], 1, %1;" ::"r"(m), "r"(height) : "memory");
    asm volatile("tensormap.replace.tile.global_stride.shared::cta.b1024.b64 [%0], 0, %1;" ::"r"(m), "l"(128ull) : "memory");
    asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 0, 1;" ::"r"(m) : "memory");
    asm volatile("tensormap.replace.tile.element_stride.shared::cta.b1024.b32 [%0], 1, 1;" ::"r"(m) : "memory");
    asm volatile("tensormap.replace.tile.elemtype.shared::cta.b1024.b32 [%0], 6;" ::"r"(m) : "memory");  // f16
    asm volatile("tensormap.replace.tile.interleave_layout.shared::cta.b1024.b32 [%0], 0;" ::"r"(m) : "memory");
    asm volatile("tensormap.replace.tile.swizzle_mode.shared::cta.b1024.b32 [%0], 3;" ::"r"(m) : "memory");  // 128B
    asm volatile("tensormap.replace.tile.fill_mode.shared::cta.b1024.b32 [%0], 0;" ::"r"(m) : "memory");
  }
  __syncwarp();
}

HP_DEV void publish_map(void* global_map, unsigned char* smem_map) {
  asm volatile(
      "tensormap.cp_fenceproxy.global.shared::cta.tensormap::generic.release.gpu.sync.aligned [%0], [%1], 128;" ::"l"(
          global_map),
      "r"(smem_u32(smem_map))
      : "memory");
  asm volatile("fence.proxy.tensormap::generic.acquire.gpu [%0], 128;" ::"l"(global_map) : "memory");
}

extern "C" __global__ void tma_device_map(const __half* in, __half* out, unsigned char* scratch, unsigned* bad, int height) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* box = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  unsigned char* maps = box + 4096;  // two 128-byte maps
  uint64_t* bar = reinterpret_cast<uint64_t*>(maps + 256);
  unsigned char* global_maps = scratch + blockIdx.x * 256;
  if (threadIdx.x < 32) {
    build_map(maps, in, height);
    publish_map(global_maps, maps);
    build_map(maps + 128, out, height);
    publish_map(global_maps + 128, maps + 128);
  }
  if (threadIdx.x == 0) {
    mbar_init(bar, 1);
    fence_mbarrier_init();
  }
  __syncthreads();
  const int y0 = blockIdx.x * 32;
  if (threadIdx.x == 0) {
    prefetch_tensormap(global_maps);
    mbar_arrive_expect_tx(bar, 4096);
    tma_load_2d(box, global_maps, bar, 0, y0);
  }
  mbar_wait(bar, 0);
  // 4096 bytes = 256 chunks of 16 bytes; thread t checks chunks t and t + 128.
  for (int c = threadIdx.x; c < 256; c += 128) {
    const int row = c / 8, chunk = c % 8;  // the logical chunk ...
    const uint4 q = *reinterpret_cast<const uint4*>(box + row * 128 + ((chunk ^ (row % 8)) * 16));  // ... where it lies
    const __half* v = reinterpret_cast<const __half*>(&q);
    for (int e = 0; e < 8; ++e) {
      const unsigned want = static_cast<unsigned>(((y0 + row) * 64 + chunk * 8 + e) % 2039);
      const unsigned got = static_cast<unsigned>(__half2float(v[e]));
      if (got != want) bad[blockIdx.x * 2048 + c * 8 + e] = got;  // MISMATCH: 0 requests on the H200
    }
  }
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    tma_store_2d(global_maps + 128, box, 0, y0);
    bulk_commit();
    bulk_wait0();
  }
}
