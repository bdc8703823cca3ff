// Softmax kernels of attention and the classifier (llm.c's kinds, our code).
//
// softmax_online_f32: one warp per row of C = 1024 logits, N = 1024 rows: a single pass keeps
//   a running maximum and a running sum rescaled when the maximum grows (online softmax),
//   merged across lanes with shuffles, then a second pass writes exp(x - max) / sum.
//   256 threads (8 rows), grid 128.
// softmax_causal_f32: attention scores (B*NH*T rows of T = 256, row t attends to keys 0..t):
//   one warp per row, the row read as float4 up to the last whole float4 before the diagonal
//   and the rest one by one, scaled by 1/sqrt(hs); outputs for keys > t are zeroed.
//   B*NH = 8: 2048 rows, 256 threads, grid 256.
// softmax_bf16_x128: classifier-style rows of V = 2048 bf16 logits read with 128-bit packed
//   loads and __ldcs, fp32 math, written back as bf16 with __stcs. One block of 256 threads
//   per row (8 bf16 per thread), block reductions through shared memory. N = 256, grid 256.

#include <cuda_bf16.h>
typedef __nv_bfloat16 bf16;

__device__ __forceinline__ void online_merge(float& m, float& s, float om, float os) {
  const float nm = fmaxf(m, om);
  s = s * __expf(m - nm) + os * __expf(om - nm);
  m = nm;
}

extern "C" __global__ void softmax_online_f32(float* out, const float* inp, int N, int C) {
  const int lane = threadIdx.x & 31;
  const int row = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
  if (row >= N) return;
  const float* x = inp + row * C;
  float m = -INFINITY, s = 0.0f;
  for (int i = lane; i < C; i += 32) {
    const float v = x[i];
    const float nm = fmaxf(m, v);
    s = s * __expf(m - nm) + __expf(v - nm);
    m = nm;
  }
  for (int d = 16; d > 0; d >>= 1) {
    const float om = __shfl_xor_sync(0xffffffffu, m, d);
    const float os = __shfl_xor_sync(0xffffffffu, s, d);
    online_merge(m, s, om, os);
  }
  const float inv = 1.0f / s;
  for (int i = lane; i < C; i += 32) out[row * C + i] = __expf(x[i] - m) * inv;
}

extern "C" __global__ void softmax_causal_f32(float* att, const float* preatt, int rows, int T, float inv_temp) {
  const int lane = threadIdx.x & 31;
  const int row = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);
  if (row >= rows) return;
  const int t = row % T;  // the query's position: keys 0..t are visible
  const float* x = preatt + row * T;
  const float4* x4 = reinterpret_cast<const float4*>(x);
  const int whole = (t + 1) / 4;  // float4s fully inside 0..t
  float m = -INFINITY, s = 0.0f;
  for (int k = lane; k < whole; k += 32) {
    const float4 v = x4[k];
    const float vs[4] = {v.x * inv_temp, v.y * inv_temp, v.z * inv_temp, v.w * inv_temp};
    for (int j = 0; j < 4; ++j) {
      const float nm = fmaxf(m, vs[j]);
      s = s * __expf(m - nm) + __expf(vs[j] - nm);
      m = nm;
    }
  }
  for (int k = 4 * whole + lane; k <= t; k += 32) {
    const float v = x[k] * inv_temp;
    const float nm = fmaxf(m, v);
    s = s * __expf(m - nm) + __expf(v - nm);
    m = nm;
  }
  for (int d = 16; d > 0; d >>= 1) {
    const float om = __shfl_xor_sync(0xffffffffu, m, d);
    const float os = __shfl_xor_sync(0xffffffffu, s, d);
    online_merge(m, s, om, os);
  }
  const float inv = 1.0f / s;
  float* y = att + row * T;
  for (int k = lane; k < T; k += 32) y[k] = k <= t ? __expf(x[k] * inv_temp - m) * inv : 0.0f;
}

extern "C" __global__ void softmax_bf16_x128(bf16* out, const bf16* logits, int V) {
  __shared__ float red[32];
  const int row = blockIdx.x;
  const int c = threadIdx.x * 8;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, warps = blockDim.x >> 5;
  const int4 raw = __ldcs(reinterpret_cast<const int4*>(logits + row * V + c));
  const bf16* p = reinterpret_cast<const bf16*>(&raw);
  float v[8];
  float m = -INFINITY;
  for (int k = 0; k < 8; ++k) {
    v[k] = __bfloat162float(p[k]);
    m = fmaxf(m, v[k]);
  }
  for (int d = 16; d > 0; d >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
  if (lane == 0) red[warp] = m;
  __syncthreads();
  m = lane < warps ? red[lane] : -INFINITY;
  for (int d = 16; d > 0; d >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, d));
  __syncthreads();
  float s = 0.0f;
  for (int k = 0; k < 8; ++k) {
    v[k] = __expf(v[k] - m);
    s += v[k];
  }
  for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
  if (lane == 0) red[warp] = s;
  __syncthreads();
  s = lane < warps ? red[lane] : 0.0f;
  for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
  const float inv = 1.0f / s;
  int4 packed;
  bf16* q = reinterpret_cast<bf16*>(&packed);
  for (int k = 0; k < 8; ++k) q[k] = __float2bfloat16(v[k] * inv);
  __stcs(reinterpret_cast<int4*>(out + row * V + c), packed);
}
