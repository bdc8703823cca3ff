// Token embedding, loss and bias-gradient kernels of a GPT-2 training step (llm.c's kinds, our
// code). B*T = 256 tokens (B = 4, T = 64), C = 768 channels, V = 1024 (vocabulary, and the
// classifier's width). Token ids and targets come from data/tokens_256.bin and
// data/targets_256.bin (int32 in [0, 1024)) through `file:`: they decide addresses.
//
// encoder_fwd_f32x4: out[b,t,:] = wte[token] + wpe[t], four channels per thread (float4).
//   256*768/4 threads, grid 192 x 256.
// encoder_fwd_bf16_x128: the same in bf16, eight channels per thread (128-bit). Grid 96 x 256.
// encoder_bwd_atomic: dwte[token, c] += dout[b,t,c] and dwpe[t, c] += dout[b,t,c] with
//   atomicAdd on floats in global memory (unused results: RED.ADD.F32); tokens repeat, so
//   different warps add to the same rows. Grid 768 x 256.
// crossentropy_fwd: loss[i] = -log(probs[i, target[i]]): one gathered float per token.
//   Grid 1 x 256.
// crossentropy_softmax_bwd: fused softmax + cross-entropy backward: one block per token row
//   of V logits: block max and sum (shuffles, then shared memory), dlogits = (p - [v ==
//   target]) * dloss, float4 loads and stores. Grid 256 x 256 (four logits per thread).
// bias_bwd_f32: dbias[o] += sum over tokens of dout[:, o], OC = 3072: block (32, 8) takes 32
//   columns, the 8 rows of threads stride the tokens, partials in a [8][33] shared tile.
//   Grid 96.
// bias_bwd_bf16_x128: bf16 dout, each lane takes 8 columns (128-bit loads), a warp 256
//   columns; 8 warps split the tokens, partials in shared memory [8][256] floats, and blocks
//   of gridDim.y split the tokens further, adding into fp32 dbias with atomicAdd.
//   Grid (12, 8) x 256.

#include <cuda_bf16.h>
typedef __nv_bfloat16 bf16;

#define TOKENS 256
#define T 64
#define C 768
#define V 1024
#define OC 3072

extern "C" __global__ void encoder_fwd_f32x4(float4* out, const int* tokens, const float4* wte, const float4* wpe) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;  // over (token, c/4)
  const int bt = idx / (C / 4), c4 = idx % (C / 4);
  const int t = bt % T;
  const float4 a = wte[tokens[bt] * (C / 4) + c4];
  const float4 p = wpe[t * (C / 4) + c4];
  out[idx] = make_float4(a.x + p.x, a.y + p.y, a.z + p.z, a.w + p.w);
}

extern "C" __global__ void encoder_fwd_bf16_x128(bf16* out, const int* tokens, const bf16* wte, const bf16* wpe) {
  const int idx = (blockIdx.x * blockDim.x + threadIdx.x) * 8;  // first channel of 8
  const int bt = idx / C, c = idx % C;
  const int t = bt % T;
  const int4 ar = *reinterpret_cast<const int4*>(wte + tokens[bt] * C + c);
  const int4 pr = *reinterpret_cast<const int4*>(wpe + t * C + c);
  const bf16* a = reinterpret_cast<const bf16*>(&ar);
  const bf16* p = reinterpret_cast<const bf16*>(&pr);
  int4 packed;
  bf16* o = reinterpret_cast<bf16*>(&packed);
  for (int k = 0; k < 8; ++k) o[k] = __float2bfloat16(__bfloat162float(a[k]) + __bfloat162float(p[k]));
  __stcs(reinterpret_cast<int4*>(out + idx), packed);
}

extern "C" __global__ void encoder_bwd_atomic(float* dwte, float* dwpe, const float* dout, const int* tokens) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  const int bt = idx / C, c = idx % C;
  const float g = dout[idx];
  atomicAdd(&dwte[tokens[bt] * C + c], g);
  atomicAdd(&dwpe[(bt % T) * C + c], g);
}

extern "C" __global__ void crossentropy_fwd(float* losses, const float* probs, const int* targets, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) losses[i] = -logf(probs[i * V + targets[i]]);
}

__device__ float block_reduce(float x, bool is_max, float* scratch) {
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int d = 16; d > 0; d >>= 1) {
    const float o = __shfl_xor_sync(0xffffffffu, x, d);
    x = is_max ? fmaxf(x, o) : x + o;
  }
  __syncthreads();  // scratch may still be read by a previous call
  if (lane == 0) scratch[warp] = x;
  __syncthreads();
  x = lane < (int)(blockDim.x >> 5) ? scratch[lane] : (is_max ? -INFINITY : 0.0f);
  for (int d = 16; d > 0; d >>= 1) {
    const float o = __shfl_xor_sync(0xffffffffu, x, d);
    x = is_max ? fmaxf(x, o) : x + o;
  }
  return x;
}

extern "C" __global__ void crossentropy_softmax_bwd(float* dlogits, const float* logits, const float* dlosses,
                                                    const int* targets) {
  __shared__ float scratch[32];
  const int row = blockIdx.x;
  const float4 x = reinterpret_cast<const float4*>(logits + row * V)[threadIdx.x];
  const float m = block_reduce(fmaxf(fmaxf(x.x, x.y), fmaxf(x.z, x.w)), true, scratch);
  const float4 e = make_float4(__expf(x.x - m), __expf(x.y - m), __expf(x.z - m), __expf(x.w - m));
  const float s = block_reduce(e.x + e.y + e.z + e.w, false, scratch);
  const float scale = dlosses[row] / s;
  const int target = targets[row];
  const int v0 = threadIdx.x * 4;
  float4 d = make_float4(e.x * scale, e.y * scale, e.z * scale, e.w * scale);
  if (target == v0 + 0) d.x -= dlosses[row];
  if (target == v0 + 1) d.y -= dlosses[row];
  if (target == v0 + 2) d.z -= dlosses[row];
  if (target == v0 + 3) d.w -= dlosses[row];
  reinterpret_cast<float4*>(dlogits + row * V)[threadIdx.x] = d;
}

extern "C" __global__ void bias_bwd_f32(float* dbias, const float* dout) {
  __shared__ float part[8][33];
  const int o = blockIdx.x * 32 + threadIdx.x;
  float s = 0.0f;
  for (int bt = threadIdx.y; bt < TOKENS; bt += 8) s += dout[bt * OC + o];
  part[threadIdx.y][threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.y == 0) {
    for (int r = 1; r < 8; ++r) s += part[r][threadIdx.x];
    dbias[o] += s;
  }
}

extern "C" __global__ void bias_bwd_bf16_x128(float* dbias, const bf16* dout) {
  __shared__ float part[8][256];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int col0 = blockIdx.x * 256 + lane * 8;
  const int rows_per_block = TOKENS / gridDim.y;
  const int r0 = blockIdx.y * rows_per_block;
  float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  for (int r = r0 + warp; r < r0 + rows_per_block; r += 8) {
    const int4 raw = *reinterpret_cast<const int4*>(dout + r * OC + col0);
    const bf16* g = reinterpret_cast<const bf16*>(&raw);
    for (int k = 0; k < 8; ++k) acc[k] += __bfloat162float(g[k]);
  }
  for (int k = 0; k < 8; ++k) part[warp][lane * 8 + k] = acc[k];
  __syncthreads();
  float s = 0.0f;
  for (int w = 0; w < 8; ++w) s += part[w][threadIdx.x];
  atomicAdd(&dbias[blockIdx.x * 256 + threadIdx.x], s);
}
