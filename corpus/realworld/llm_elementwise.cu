// Elementwise kernels of a GPT-2 training step (llm.c's kinds, our code): GELU forward and
// backward, AdamW. N = 262144 elements.
//
// gelu_fwd_f32: tanh-approximation GELU, one float per thread. Grid 1024 x 256.
// gelu_fwd_bf16_x128: eight bf16 per thread through one 128-bit __ldcs load and __stcs store.
//   Grid 128 x 256.
// gelu_bwd_bf16_x128: dinp = gelu'(inp) * dout, both read as 128-bit packs (inp with __ldcs),
//   written in place of dinp. Grid 128 x 256.
// adamw_f32: AdamW on fp32 parameters, gradients and moments (five streams, one float each).
//   Grid 1024 x 256.
// adamw_bf16_master: bf16 parameters and gradients, fp32 master weights and moments: the
//   update runs on the master copy and the bf16 parameter is rounded from it (2-byte accesses
//   beside 4-byte ones). Grid 1024 x 256.

#include <cuda_bf16.h>
typedef __nv_bfloat16 bf16;

#define GELU_K 0.7978845608f  // sqrt(2 / pi)

extern "C" __global__ void gelu_fwd_f32(float* out, const float* inp, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    const float x = inp[i];
    out[i] = 0.5f * x * (1.0f + tanhf(GELU_K * (x + 0.044715f * x * x * x)));
  }
}

extern "C" __global__ void gelu_fwd_bf16_x128(bf16* out, const bf16* inp, int n) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (i >= n) return;
  const int4 raw = __ldcs(reinterpret_cast<const int4*>(inp + i));
  const bf16* x = reinterpret_cast<const bf16*>(&raw);
  int4 packed;
  bf16* y = reinterpret_cast<bf16*>(&packed);
  for (int k = 0; k < 8; ++k) {
    const float v = __bfloat162float(x[k]);
    y[k] = __float2bfloat16(0.5f * v * (1.0f + tanhf(GELU_K * (v + 0.044715f * v * v * v))));
  }
  __stcs(reinterpret_cast<int4*>(out + i), packed);
}

extern "C" __global__ void gelu_bwd_bf16_x128(bf16* dinp, const bf16* inp, const bf16* dout, int n) {
  const int i = (blockIdx.x * blockDim.x + threadIdx.x) * 8;
  if (i >= n) return;
  const int4 xr = __ldcs(reinterpret_cast<const int4*>(inp + i));
  const int4 gr = *reinterpret_cast<const int4*>(dout + i);
  const bf16* x = reinterpret_cast<const bf16*>(&xr);
  const bf16* g = reinterpret_cast<const bf16*>(&gr);
  int4 packed;
  bf16* d = reinterpret_cast<bf16*>(&packed);
  for (int k = 0; k < 8; ++k) {
    const float v = __bfloat162float(x[k]);
    const float u = GELU_K * (v + 0.044715f * v * v * v);
    const float th = tanhf(u);
    const float sech2 = 1.0f - th * th;
    const float grad = 0.5f * (1.0f + th) + 0.5f * v * sech2 * GELU_K * (1.0f + 3.0f * 0.044715f * v * v);
    d[k] = __float2bfloat16(grad * __bfloat162float(g[k]));
  }
  *reinterpret_cast<int4*>(dinp + i) = packed;
}

__device__ __forceinline__ float lerp_to(float from, float to, float w) { return fmaf(w, to - from, from); }

extern "C" __global__ void adamw_f32(float* params, const float* grads, float* m, float* v, int n, float lr,
                                     float beta1, float beta2, float beta1_corr, float beta2_corr, float eps,
                                     float weight_decay) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float g = grads[i];
  const float mi = lerp_to(g, m[i], beta1);
  const float vi = lerp_to(g * g, v[i], beta2);
  m[i] = mi;
  v[i] = vi;
  const float mhat = mi / beta1_corr, vhat = vi / beta2_corr;
  params[i] -= lr * (mhat / (sqrtf(vhat) + eps) + weight_decay * params[i]);
}

extern "C" __global__ void adamw_bf16_master(bf16* params, float* master, const bf16* grads, float* m, float* v,
                                             int n, float lr, float beta1, float beta2, float beta1_corr,
                                             float beta2_corr, float eps, float weight_decay) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float g = __bfloat162float(grads[i]);
  const float mi = lerp_to(g, m[i], beta1);
  const float vi = lerp_to(g * g, v[i], beta2);
  m[i] = mi;
  v[i] = vi;
  const float p = master[i];
  const float np = p - lr * (mi / beta1_corr / (sqrtf(vi / beta2_corr) + eps) + weight_decay * p);
  master[i] = np;
  params[i] = __float2bfloat16(np);
}
