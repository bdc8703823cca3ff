// warp_strided_tail.cu: the causal loops of attention backward kernels (llm.c's
// softmax_autoregressive_backward_kernel3): warp w takes column c = 8 b + w of a T x T
// causal matrix and walks the rows t = c .. T - 1; in row t its lanes stride over the
// columns, t2 = lane, lane + 32, ... while t2 <= t, two loads an iteration, then a warp sum.
// ptxas unrolls the PTX's loop of one iteration to a loop of 4, then a block of 2 and a
// block of 1 (no loop of one: the blocks cover what the loop of 4 leaves). Lanes l <= t % 32
// have one iteration more than the others, so they run some iterations in other SASS
// regions than their neighbours: more requests and sectors than the PTX's iterations.
//
//   strided_tail_rows   out[t * T + c] = sum over t2 <= t of (t2 == c) - a[t][c]) * a[t][t2] * d[t][t2]
//   strided_tail_fixed  the same over t2 <= (t | 31): every lane the same trip count, a control.
// T = 128, grid (16, 4) (8 columns a block, 4 matrices), block 256; att, datt, out: 4 x T x T floats.
extern "C" __global__ void strided_tail_rows(float* out, const float* att, const float* datt, int T) {
  const int lane = threadIdx.x % 32;
  const int c = blockIdx.x * 8 + threadIdx.x / 32;
  const int base = blockIdx.y * T * T;  // one T x T matrix per blockIdx.y (batch and head)
  if (c >= T) return;
  for (int t = c; t < T; t++) {
    float acc = 0.0f;
    const float* a = att + base + t * T;
    const float* d = datt + base + t * T;
    const float at = a[c];
    for (int t2 = lane; t2 <= t; t2 += warpSize) {  // WARP_SZ: nvcc keeps the loop as written
      float indicator = t2 == c ? 1.0f : 0.0f;
      float local = a[t2] * (indicator - at);
      acc += local * d[t2];
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (lane == 0) out[base + t * T + c] = acc;
  }
}

extern "C" __global__ void strided_tail_fixed(float* out, const float* att, const float* datt, int T) {
  const int lane = threadIdx.x % 32;
  const int c = blockIdx.x * 8 + threadIdx.x / 32;
  const int base = blockIdx.y * T * T;
  if (c >= T) return;
  for (int t = c; t < T; t++) {
    float acc = 0.0f;
    const float* a = att + base + t * T;
    const float* d = datt + base + t * T;
    const float at = a[c];
    for (int t2 = lane; t2 <= (t | 31); t2 += warpSize) {
      float indicator = t2 == c ? 1.0f : 0.0f;
      float local = a[t2] * (indicator - at);
      acc += local * d[t2];
    }
    for (int o = 16; o > 0; o >>= 1) acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if (lane == 0) out[base + t * T + c] = acc;
  }
}
