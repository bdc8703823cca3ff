// Kernels that exercise divergence, calls, misuse, and odd instructions.
#include <cuda_pipeline.h>
__device__ __noinline__ int collatz_steps(int v) {
  int steps = 0;
  while (v != 1) {
    if (v & 1) v = 3 * v + 1; else v /= 2;
    ++steps;
    if (steps > 1000) break;
  }
  return steps;
}
extern "C" __global__ void divergent(int* out) {
  int t = threadIdx.x + 1;
  out[threadIdx.x] = collatz_steps(t);
}
extern "C" __global__ void early_return(float* data, int n) {
  __shared__ float s[128];
  if (threadIdx.x >= n) return;
  s[threadIdx.x] = data[threadIdx.x];
  __syncthreads();
  data[threadIdx.x] = s[127 - threadIdx.x];
}
extern "C" __global__ void oob(float* data) {
  data[threadIdx.x * 2] = 1.0f;
}
extern "C" __global__ void strided(float* out, const float* in) {
  __shared__ float s[64];
  s[threadIdx.x * 2] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 2];
}
extern "C" __global__ void vote_match(unsigned* out, const int* in) {
  int v = in[threadIdx.x];
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  int any = __any_sync(0xffffffff, v > 5);
  int all = __all_sync(0xffffffff, v >= 0);
  unsigned m = __match_any_sync(0xffffffff, v);
  out[threadIdx.x * 4 + 0] = b;
  out[threadIdx.x * 4 + 1] = any;
  out[threadIdx.x * 4 + 2] = all;
  out[threadIdx.x * 4 + 3] = m;
}
extern "C" __global__ void bits(unsigned* out, const unsigned* in) {
  unsigned v = in[threadIdx.x];
  out[threadIdx.x * 8 + 0] = __popc(v);
  out[threadIdx.x * 8 + 1] = __clz(v);
  out[threadIdx.x * 8 + 2] = __brev(v);
  out[threadIdx.x * 8 + 3] = __byte_perm(v, 0x12345678u, 0x3210 + threadIdx.x);
  out[threadIdx.x * 8 + 4] = (v >> 3) & 0x1f;
  out[threadIdx.x * 8 + 5] = __umulhi(v, 0x9e3779b9u);
  out[threadIdx.x * 8 + 6] = v / (threadIdx.x + 1) + v % (threadIdx.x + 3);
  out[threadIdx.x * 8 + 7] = (unsigned)(__fsqrt_rn((float)v) + sinf((float)threadIdx.x));
}
extern "C" __global__ void async_copy(float* out, const float* in) {
  __shared__ __align__(16) float s[256];
  __pipeline_memcpy_async(&s[threadIdx.x * 4], &in[threadIdx.x * 4], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = s[(threadIdx.x * 4) % 256 + 1];
}
extern "C" __global__ void generic_ptr(float* out, int which) {
  __shared__ float s[32];
  float* p = which ? s : out;
  p[threadIdx.x] = threadIdx.x * 2.0f;
  __syncthreads();
  out[threadIdx.x + 32] = s[threadIdx.x];
}
extern "C" __global__ void spin(int* flag) {
  while (*(volatile int*)flag == 0) {}
}
