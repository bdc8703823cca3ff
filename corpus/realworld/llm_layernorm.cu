// LayerNorm of a transformer's training step (llm.c's style of kernel, our code), N = B*T
// = 1024 rows of C = 768 channels.
//
// layernorm_fwd_f32: one warp per row (cooperative groups thread_block_tile<32>, cg::reduce
//   for the mean and the variance), mean and rstd stored with __stcs, the row re-read with
//   __ldcs for the output. 256 threads = 8 rows per block, grid 128.
// layernorm_fwd_bf16: the same on bf16 activations with 128-bit packed loads (Pack128: eight
//   __nv_bfloat16 in one int4), weights and bias in bf16, statistics in fp32. Grid 128.
// layernorm_bwd_f32: the backward pass: per row, dnorm mean and dnorm*norm mean by warp
//   reductions, dinp written; dweight and dbias accumulated per block in shared memory with
//   atomicAdd on floats (ptxas makes a CAS retry loop of them: timing-dependent on the GPU),
//   then added to the global ones with atomicAdd (RED.ADD.F32). 512 threads, 16 rows per
//   block, grid 64; the two shared accumulators take 2 * 768 floats (dynamic shared memory,
//   6144 bytes).
// layernorm_bwd_warp_rows: the same without shared atomics: each warp keeps its own dweight /
//   dbias partial rows in shared memory (16 warps x 2 x 768 floats would be 96 KiB, so 8 warps
//   of 256 threads: 48 KiB dynamic, 49152 bytes), summed per channel at the end. Grid 128.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_bf16.h>
namespace cg = cooperative_groups;

typedef __nv_bfloat16 bf16;

struct alignas(16) Pack128 {  // eight bf16 moved as one 128-bit access
  bf16 v[8];
  __device__ static Pack128 load(const bf16* p) {
    Pack128 r;
    *reinterpret_cast<int4*>(r.v) = *reinterpret_cast<const int4*>(p);
    return r;
  }
  __device__ static Pack128 load_cs(const bf16* p) {
    Pack128 r;
    *reinterpret_cast<int4*>(r.v) = __ldcs(reinterpret_cast<const int4*>(p));
    return r;
  }
  __device__ void store_cs(bf16* p) const { __stcs(reinterpret_cast<int4*>(p), *reinterpret_cast<const int4*>(v)); }
};

extern "C" __global__ void layernorm_fwd_f32(float* out, float* mean, float* rstd, const float* inp,
                                             const float* weight, const float* bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= N) return;
  const float* x = inp + row * C;
  float sum = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) sum += x[i];
  const float m = cg::reduce(warp, sum, cg::plus<float>()) / C;
  float var = 0.0f;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    const float d = x[i] - m;
    var += d * d;
  }
  const float r = rsqrtf(cg::reduce(warp, var, cg::plus<float>()) / C + 1e-5f);
  if (warp.thread_rank() == 0) {
    __stcs(mean + row, m);
    __stcs(rstd + row, r);
  }
  float* y = out + row * C;
  for (int i = warp.thread_rank(); i < C; i += warp.size()) __stcs(y + i, r * (__ldcs(x + i) - m) * weight[i] + bias[i]);
}

extern "C" __global__ void layernorm_fwd_bf16(bf16* out, float* mean, float* rstd, const bf16* inp,
                                              const bf16* weight, const bf16* bias, int N, int C) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  const int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row >= N) return;
  const bf16* x = inp + row * C;
  float sum = 0.0f;
  for (int c = warp.thread_rank() * 8; c < C; c += warp.size() * 8) {
    const Pack128 p = Pack128::load(x + c);
    for (int k = 0; k < 8; ++k) sum += __bfloat162float(p.v[k]);
  }
  const float m = cg::reduce(warp, sum, cg::plus<float>()) / C;
  float var = 0.0f;
  for (int c = warp.thread_rank() * 8; c < C; c += warp.size() * 8) {
    const Pack128 p = Pack128::load(x + c);
    for (int k = 0; k < 8; ++k) {
      const float d = __bfloat162float(p.v[k]) - m;
      var += d * d;
    }
  }
  const float r = rsqrtf(cg::reduce(warp, var, cg::plus<float>()) / C + 1e-5f);
  if (warp.thread_rank() == 0) {
    __stcs(mean + row, m);
    __stcs(rstd + row, r);
  }
  for (int c = warp.thread_rank() * 8; c < C; c += warp.size() * 8) {
    const Pack128 p = Pack128::load_cs(x + c);
    const Pack128 w = Pack128::load(weight + c);
    const Pack128 b = Pack128::load(bias + c);
    Pack128 o;
    for (int k = 0; k < 8; ++k) {
      const float n = r * (__bfloat162float(p.v[k]) - m);
      o.v[k] = __float2bfloat16(n * __bfloat162float(w.v[k]) + __bfloat162float(b.v[k]));
    }
    o.store_cs(out + row * C + c);
  }
}

extern "C" __global__ void layernorm_bwd_f32(float* dinp, float* dweight, float* dbias, const float* dout,
                                             const float* inp, const float* weight, const float* mean,
                                             const float* rstd, int N, int C) {
  extern __shared__ float acc[];  // dbias[C] then dweight[C]
  float* acc_dbias = acc;
  float* acc_dweight = acc + C;
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  for (int i = threadIdx.x; i < 2 * C; i += blockDim.x) acc[i] = 0.0f;
  block.sync();
  const int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  if (row < N) {
    const float* g = dout + row * C;
    const float* x = inp + row * C;
    const float m = mean[row], r = rstd[row];
    float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
      const float norm = (x[i] - m) * r;
      const float dnorm = weight[i] * g[i];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * norm;
    }
    dnorm_mean = cg::reduce(warp, dnorm_mean, cg::plus<float>()) / C;
    dnorm_norm_mean = cg::reduce(warp, dnorm_norm_mean, cg::plus<float>()) / C;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
      const float norm = (x[i] - m) * r;
      const float dnorm = weight[i] * g[i];
      atomicAdd(&acc_dbias[i], g[i]);
      atomicAdd(&acc_dweight[i], norm * g[i]);
      dinp[row * C + i] = (dnorm - dnorm_mean - norm * dnorm_norm_mean) * r;
    }
  }
  block.sync();
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    atomicAdd(&dbias[i], acc_dbias[i]);
    atomicAdd(&dweight[i], acc_dweight[i]);
  }
}

extern "C" __global__ void layernorm_bwd_warp_rows(float* dinp, float* dweight, float* dbias, const float* dout,
                                                   const float* inp, const float* weight, const float* mean,
                                                   const float* rstd, int N, int C) {
  extern __shared__ float part[];  // per warp: dbias[C], dweight[C]
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float* my_dbias = part + warp.meta_group_rank() * 2 * C;
  float* my_dweight = my_dbias + C;
  const int row = blockIdx.x * warp.meta_group_size() + warp.meta_group_rank();
  for (int i = warp.thread_rank(); i < C; i += warp.size()) {
    my_dbias[i] = 0.0f;
    my_dweight[i] = 0.0f;
  }
  if (row < N) {
    const float* g = dout + row * C;
    const float* x = inp + row * C;
    const float m = mean[row], r = rstd[row];
    float dnorm_mean = 0.0f, dnorm_norm_mean = 0.0f;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
      const float norm = (x[i] - m) * r;
      const float dnorm = weight[i] * g[i];
      dnorm_mean += dnorm;
      dnorm_norm_mean += dnorm * norm;
    }
    dnorm_mean = cg::reduce(warp, dnorm_mean, cg::plus<float>()) / C;
    dnorm_norm_mean = cg::reduce(warp, dnorm_norm_mean, cg::plus<float>()) / C;
    for (int i = warp.thread_rank(); i < C; i += warp.size()) {
      const float norm = (x[i] - m) * r;
      const float dnorm = weight[i] * g[i];
      my_dbias[i] += g[i];
      my_dweight[i] += norm * g[i];
      dinp[row * C + i] = (dnorm - dnorm_mean - norm * dnorm_norm_mean) * r;
    }
  }
  block.sync();
  for (int i = threadIdx.x; i < C; i += blockDim.x) {
    float db = 0.0f, dw = 0.0f;
    for (int w = 0; w < (int)warp.meta_group_size(); ++w) {
      db += part[w * 2 * C + i];
      dw += part[w * 2 * C + C + i];
    }
    atomicAdd(&dbias[i], db);
    atomicAdd(&dweight[i], dw);
  }
}
