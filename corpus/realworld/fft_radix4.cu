// FFTs through shared memory in two more shapes than examples/fft_shared.cu.
//
// fft1024_stockham_r4: 1024-point complex FFT per block, radix-4 Stockham autosort, 256
//   threads each doing one radix-4 butterfly per stage (5 stages), ping-pong between two
//   float2 arrays of 1024. Thread t reads x[t + k*256] (k = 0..3: conflict-free 8-byte
//   rows) and writes y[(t / s) * 4s + t % s + k*s] with s = 4^stage: for s = 1 the warp's
//   stores are 4 float2 apart (32 bytes: each half-warp spans 512 bytes, 4-way), for s >= 16
//   contiguous. Twiddles from __sincosf. 64 signals, grid 64.
// fft_rows_batched: 16-point FFTs, one row per thread, in registers (radix-2, bit-reversed
//   read): a warp of 32 threads stages 32 rows x 16 float2 in a shared tile [32][16], loaded
//   coalesced, then each thread reads its own row: lanes 128 bytes apart, so every 8-byte
//   half-warp group lands on the same two banks (16-way); the results go back the same way.
//   Written the way small batched transforms often are. 512 blocks of 32 threads (16384 rows).

#define N 1024

__device__ __forceinline__ float2 cmul(float2 a, float2 b) { return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }
__device__ __forceinline__ float2 cadd(float2 a, float2 b) { return make_float2(a.x + b.x, a.y + b.y); }
__device__ __forceinline__ float2 csub(float2 a, float2 b) { return make_float2(a.x - b.x, a.y - b.y); }
__device__ __forceinline__ float2 twiddle(int k, int n) {
  float s, c;
  __sincosf(-6.283185307f * k / n, &s, &c);
  return make_float2(c, s);
}

extern "C" __global__ void fft1024_stockham_r4(float2* out, const float2* in) {
  __shared__ float2 buf[2][N];
  const int t = threadIdx.x;
  const float2* x = in + blockIdx.x * N;
  for (int k = 0; k < 4; ++k) buf[0][t + k * 256] = x[t + k * 256];
  int src = 0;
  for (int s = 1; s < N; s *= 4) {
    __syncthreads();
    const int j = t % s;            // position inside the current sub-transform
    const float2 w1 = twiddle(j, 4 * s), w2 = twiddle(2 * j, 4 * s), w3 = twiddle(3 * j, 4 * s);
    const float2 a0 = buf[src][t];
    const float2 a1 = cmul(buf[src][t + 256], w1);
    const float2 a2 = cmul(buf[src][t + 512], w2);
    const float2 a3 = cmul(buf[src][t + 768], w3);
    const float2 b0 = cadd(a0, a2), b1 = csub(a0, a2);
    const float2 b2 = cadd(a1, a3);
    const float2 d = csub(a1, a3);
    const float2 b3 = make_float2(d.y, -d.x);  // (a1 - a3) * -i
    const int o = (t / s) * 4 * s + j;
    buf[src ^ 1][o] = cadd(b0, b2);
    buf[src ^ 1][o + s] = cadd(b1, b3);
    buf[src ^ 1][o + 2 * s] = csub(b0, b2);
    buf[src ^ 1][o + 3 * s] = csub(b1, b3);
    src ^= 1;
  }
  __syncthreads();
  float2* y = out + blockIdx.x * N;
  for (int k = 0; k < 4; ++k) y[t + k * 256] = buf[src][t + k * 256];
}

// 16-point FFT per row, one row per thread: the block stages 32 rows x 16 complex values.
extern "C" __global__ void fft_rows_batched(float2* out, const float2* in) {
  __shared__ float2 tile[32][16];
  const int lane = threadIdx.x;  // 32 threads
  const float2* x = in + blockIdx.x * 32 * 16;
  for (int k = 0; k < 16; ++k) tile[k * 2 + lane / 16][lane % 16] = x[k * 32 + lane];
  __syncthreads();
  float2 v[16];
#pragma unroll
  for (int k = 0; k < 16; ++k)  // bit-reversed order; each lane reads its own row: lanes 128 B apart
    v[k] = tile[lane][((k & 1) << 3) | ((k & 2) << 1) | ((k & 4) >> 1) | ((k & 8) >> 3)];
  for (int h = 1; h < 16; h <<= 1)
    for (int i = 0; i < 16; ++i)
      if ((i & h) == 0) {
        const float2 w = twiddle(i & (h - 1), 2 * h);
        const float2 b = cmul(v[i + h], w);
        v[i + h] = csub(v[i], b);
        v[i] = cadd(v[i], b);
      }
  __syncthreads();
  for (int k = 0; k < 16; ++k) tile[lane][k] = v[k];
  __syncthreads();
  float2* y = out + blockIdx.x * 32 * 16;
  for (int k = 0; k < 16; ++k) y[k * 32 + lane] = tile[k * 2 + lane / 16][lane % 16];
}
