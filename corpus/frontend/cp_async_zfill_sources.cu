// cp_async_zfill_sources.cu: does a zero-filled lane of a 16-byte cp.async (LDGSTS.BYPASS with
// src-size 0) cost a wavefront of its own, or does it depend on where its (unread) source
// points? Triton's masked loads keep the lane's own address (the columns past K of a row, in
// the same 128-byte line as its neighbours' data); corpus/frontend/cp_async_zfill.cu points
// such lanes far past the end of `in`. Thread gid copies in[gid] (16 bytes) into tile[slot]
// with src-size (zero_mask >> lane) & 1 ? 0 : 16, its source `in + gid` (own = 1) or past the
// end (own = 0); slot = tid, or with swizzle = 1 the chunk XOR-swizzled in its 128-byte row
// as Triton's 128B layout does (chunk ^ row % 8). Then out[gid] = tile[tid ^ 1].
// Grid 64 of 256 threads; in and out hold 64 * 256 float4 (262144 bytes) + 4096 float4 slack.
#include <cstdint>

extern "C" __global__ void zfill_sources(float4* out, const float4* in, unsigned zero_mask, int own, int swizzle) {
  __shared__ __align__(128) float4 tile[256];
  const unsigned lane = threadIdx.x % 32, row = threadIdx.x / 8, chunk = threadIdx.x % 8;
  const unsigned slot = row * 8 + (swizzle ? chunk ^ (row % 8) : chunk);
  const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
  const bool zero = (zero_mask >> lane) & 1u;
  const float4* src = zero && !own ? in + 64 * 256 + 2048 : in + gid;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"((unsigned)__cvta_generic_to_shared(&tile[slot])),
               "l"(src), "r"(zero ? 0u : 16u)
               : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  out[gid] = tile[threadIdx.x ^ 1];
}
