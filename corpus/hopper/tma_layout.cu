// tma_layout.cu: a TMA box load whose shared-memory layout checks itself on the GPU.
//
// The tensor (map `in`, u32 elements, a `tmap:` argument) holds value y * width + x + 1
// at (x, y) (data/iota_*.bin). Block (bx, by) loads the box at (x0 + bx * box_w,
// y0 + by * box_h) (x0, y0 may be negative: out-of-bounds rows and columns), waits on an
// mbarrier, and every thread walks the box's shared bytes as the hardware laid them
// out: for the u32 at shared byte p it computes which box element warpscope says lives
// there (undo the swizzle: p ^ ((p >> 7) & m) << 4, then row = q / row_bytes, column =
// q % row_bytes / 4) and the value that element must hold (0 outside the tensor, or
// the NaN fill 0x7fffffff). A thread that finds anything else stores it to `bad`.
// So on the H200 the line of that store (marked MISMATCH) must count 0 global store
// requests and sectors: any other figure means the hardware lays boxes out (or fills
// them) differently from warpscope.
//
// Then the box goes back with a TMA store (map `out`, same shape; out-of-bounds
// elements are not written) and the block waits for it to finish reading shared
// memory (cp.async.bulk.wait_group.read).
//
// Launch: grid (gx, gy), block 128, dynamic shared memory box bytes + 1024 + 16.
// Parameters: in, out, bad (u32 [grid][box elements]), width, x0, y0, box_w, box_h,
// swizzle bytes (0/32/64/128), fill (0 or 0x7fffffff).
#include <cuda.h>

#include "hopper_ptx.cuh"

extern "C" __global__ void tma_layout(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out,
                                      unsigned* bad, int width, int height, int x0, int y0, int box_w, int box_h,
                                      int swizzle, unsigned fill) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* box = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  const int row_bytes = box_w * 4;
  const int box_bytes = row_bytes * box_h;
  uint64_t* bar = reinterpret_cast<uint64_t*>(box + box_bytes);
  const int bx = x0 + blockIdx.x * box_w, by = y0 + blockIdx.y * box_h;
  if (threadIdx.x == 0) {
    mbar_init(bar, 1);
    fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_arrive_expect_tx(bar, box_bytes);
    tma_load_2d(box, &in, bar, bx, by);
  }
  mbar_wait(bar, 0);
  const unsigned mask = swizzle == 128 ? 7u : swizzle == 64 ? 3u : swizzle == 32 ? 1u : 0u;
  const unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  for (int p = threadIdx.x * 4; p < box_bytes; p += blockDim.x * 4) {
    const unsigned q = static_cast<unsigned>(p) ^ (((static_cast<unsigned>(p) >> 7) & mask) << 4);
    const int x = bx + static_cast<int>(q % row_bytes) / 4, y = by + static_cast<int>(q / row_bytes);
    const bool inside = x >= 0 && x < width && y >= 0 && y < height;
    const unsigned expected = inside ? static_cast<unsigned>(y * width + x + 1) : fill;
    const unsigned got = *reinterpret_cast<const unsigned*>(box + p);
    if (got != expected) bad[block * (box_bytes / 4) + p / 4] = got;  // MISMATCH: 0 requests on the H200
  }
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    tma_store_2d(&out, box, bx, by);
    bulk_commit();
    bulk_wait_read0();
  }
}
