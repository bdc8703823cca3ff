// More kernels: tiled GEMM, float4 through shared, double transpose, a local array,
// a struct argument, __syncthreads_count, atomicCAS loops, __reduce_add_sync, printf.
#include <cstdio>
#define T 16
extern "C" __global__ void gemm_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.f;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[threadIdx.y][threadIdx.x] = A[row * n + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
extern "C" __global__ void float4_copy(float4* out, const float4* in) {
  __shared__ float4 s[128];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  float4 v = s[blockDim.x - 1 - threadIdx.x];
  v.x += 1.f;
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
extern "C" __global__ void transpose_double(double* out, const double* in, int n) {
  __shared__ double tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x; y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
struct Params { int scale; float bias; int offsets[4]; };
extern "C" __global__ void local_array(int* out, Params p, int k) {
  int buf[16];
  for (int i = 0; i < 16; ++i) buf[i] = i * p.scale + threadIdx.x;
  out[threadIdx.x] = buf[(threadIdx.x + k) & 15] + p.offsets[threadIdx.x & 3] + (int)p.bias;
}
__device__ float atomic_max_float(float* addr, float v) {
  int* a = (int*)addr; int old = *a, assumed;
  do { assumed = old; old = atomicCAS(a, assumed, __float_as_int(fmaxf(v, __int_as_float(assumed)))); } while (assumed != old);
  return __int_as_float(old);
}
extern "C" __global__ void sync_count(int* out, float* mx, const float* in) {
  float v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int c = __syncthreads_count(v > 0.5f);
  int a = __syncthreads_and(v >= 0.f);
  int o = __syncthreads_or(v > 0.99f);
  unsigned r = __reduce_add_sync(0xffffffff, (unsigned)(v * 10));
  atomic_max_float(mx, v);
  if (threadIdx.x == 0) { out[blockIdx.x * 4] = c; out[blockIdx.x * 4 + 1] = a; out[blockIdx.x * 4 + 2] = o; }
  if (threadIdx.x == 32) out[blockIdx.x * 4 + 3] = r;
}
extern "C" __global__ void with_printf(int* out) {
  if (threadIdx.x == 0) printf("hello %d\n", blockIdx.x);
  out[threadIdx.x] = threadIdx.x;
}
#include <cuda_fp16.h>
extern "C" __global__ void halves(__half2* out, const float* in) {
  float a = in[threadIdx.x], b = in[threadIdx.x + 32];
  __half2 h = __floats2half2_rn(a, b);
  h = __hfma2(h, h, __float2half2_rn(0.5f));
  out[threadIdx.x] = h;
}
