// cp.async with src-size smaller than cp-size (the rest is zero-filled) and with the
// ignore-src predicate: what the H200 reads and what ncu counts for LDGSTS when a lane
// reads nothing. Each kernel: thread gid copies 16 bytes (in[gid], float4) or 4 bytes
// into shared memory with one cp.async form, then stores tile[tid ^ 1] to out[gid].
// Grid 64 of 256 threads (512 warps); in and out hold 64 * 256 float4 (262144 bytes);
// lanes that read nothing point past the end of `in` (as Triton's masked loads do).
//   zfill_full          16 bytes, no src-size                 every lane reads
//   zfill_zero_all      src-size 0 (immediate)                no lane reads
//   zfill_upper_zero    src-size lane < 16 ? 16 : 0           lanes 0-15 read
//   zfill_partial       src-size 8 of 16                      every lane reads 8 bytes
//   zfill_ignore_odd    ignore-src = lane is odd              even lanes read
//   zfill_4b_upper_zero 4 bytes, src-size lane < 16 ? 4 : 0   lanes 0-15 read (Triton's form)
#include <cstdint>

__device__ __forceinline__ unsigned smem(const void* p) { return (unsigned)__cvta_generic_to_shared(p); }

__device__ __forceinline__ void finish(float4* out, const float4* tile) {
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x ^ 1];
}

// The source of lanes that read nothing: far past the end of `in`.
__device__ __forceinline__ const float4* past_end(const float4* in) { return in + 64 * 256 + 4096; }

extern "C" __global__ void zfill_full(float4* out, const float4* in) {
  __shared__ float4 tile[256];
  const float4* src = in + blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem(&tile[threadIdx.x])), "l"(src) : "memory");
  finish(out, tile);
}

extern "C" __global__ void zfill_zero_all(float4* out, const float4* in) {
  __shared__ float4 tile[256];
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, 0;" ::"r"(smem(&tile[threadIdx.x])), "l"(past_end(in))
               : "memory");
  finish(out, tile);
}

extern "C" __global__ void zfill_upper_zero(float4* out, const float4* in) {
  __shared__ float4 tile[256];
  const bool reads = threadIdx.x % 32 < 16;
  const float4* src = reads ? in + blockIdx.x * blockDim.x + threadIdx.x : past_end(in);
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(&tile[threadIdx.x])), "l"(src),
               "r"(reads ? 16 : 0) : "memory");
  finish(out, tile);
}

extern "C" __global__ void zfill_partial(float4* out, const float4* in) {
  __shared__ float4 tile[256];
  const float4* src = in + blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, 8;" ::"r"(smem(&tile[threadIdx.x])), "l"(src) : "memory");
  finish(out, tile);
}

extern "C" __global__ void zfill_ignore_odd(float4* out, const float4* in) {
  __shared__ float4 tile[256];
  const bool odd = threadIdx.x % 2 == 1;
  const float4* src = odd ? past_end(in) : in + blockIdx.x * blockDim.x + threadIdx.x;
  asm volatile("{ .reg .pred p; setp.ne.u32 p, %2, 0; cp.async.cg.shared.global [%0], [%1], 16, p; }" ::"r"(
                   smem(&tile[threadIdx.x])),
               "l"(src), "r"((unsigned)odd) : "memory");
  finish(out, tile);
}

extern "C" __global__ void zfill_4b_upper_zero(float4* out, const float4* in) {
  __shared__ float4 tile[256];
  const bool reads = threadIdx.x % 32 < 16;
  const float* src = reads ? reinterpret_cast<const float*>(in) + blockIdx.x * blockDim.x + threadIdx.x
                           : reinterpret_cast<const float*>(past_end(in));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;" ::"r"(smem(&tile[threadIdx.x])), "l"(src),
               "r"(reads ? 4 : 0) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  // Only the first word of each slot was written: out (as floats) gets those.
  reinterpret_cast<float*>(out)[blockIdx.x * blockDim.x + threadIdx.x] = tile[threadIdx.x ^ 1].x;
}
