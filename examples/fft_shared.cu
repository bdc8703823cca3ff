// Radix-2 Cooley-Tukey FFT of 1024 complex points per block, in shared memory, with the
// real and imaginary parts in two float arrays. 512 threads: one butterfly each per stage,
// ten stages. Grid = number of signals (64); in/out hold float2 (8 KiB per signal).
//
// The input is stored bit-reversed (re[rev(i)] = in[i].x): lane l of warp w writes word
// rev(32w + l), whose low five bits are rev5 of the high bits of i, the same for the whole
// warp -> all 32 lanes in one bank, 32-way.
// Stage h (half-size 1, 2, ..., 512) pairs i = g * 2h + j with i + h, for group g and
// offset j < h. Consecutive threads take consecutive GROUPS (g = t % groups, j = t / groups,
// groups = 512 / h), so a warp's lanes are 2h words apart: the conflict degree grows with
// the stride, 2, 4, 8, 16, 32-way at h = 1..16, then falls as fewer groups than lanes
// remain (16-way at h = 32, 8, 4, 2, 1 at h = 512): 93 wavefronts per access over the ten
// stages where 10 would do.
//
// fft1024<LAYOUT> (explicit instantiations, launched by mangled name):
//   LAYOUT 0, plain     re[i]                       (_Z7fft1024ILi0EEvP6float2PKS0_)
//   LAYOUT 1, padded    re[i + i / 32]: one word of padding every 32 (4 KiB + 128 B)
//   LAYOUT 2, swizzled  re[i ^ ((i >> 5) & 31)]: the layout `warpscope fix` picks
//                       (Swizzle<5,2,5> on bytes), no extra bytes
// Both fixes make every access conflict-free: the 2h-word strides become 2h + 2h/32 (padded)
// or land on distinct banks through the XOR of the row bits (swizzled), and the bit-reversed
// stores spread over 32 banks.

#define N 1024
#define LOG_N 10

template <int LAYOUT>
__device__ __forceinline__ int slot(int i) {
  if (LAYOUT == 1) return i + (i >> 5);
  if (LAYOUT == 2) return i ^ ((i >> 5) & 31);
  return i;
}

template <int LAYOUT>
__global__ void fft1024(float2* out, const float2* in) {
  __shared__ float re[LAYOUT == 1 ? N + N / 32 : N];
  __shared__ float im[LAYOUT == 1 ? N + N / 32 : N];
  const int t = threadIdx.x;
  const float2* x = in + blockIdx.x * N;
  for (int i = t; i < N; i += blockDim.x) {
    const float2 v = x[i];
    const int r = slot<LAYOUT>(__brev(i) >> (32 - LOG_N));
    re[r] = v.x;
    im[r] = v.y;
  }
  for (int h = 1; h < N; h <<= 1) {
    __syncthreads();
    const int groups = N / (2 * h);
    const int g = t % groups, j = t / groups;  // consecutive threads: consecutive groups
    const int a = slot<LAYOUT>(g * 2 * h + j), b = slot<LAYOUT>(g * 2 * h + j + h);
    float s, c;
    __sincosf(-3.14159265f * j / h, &s, &c);  // w = exp(-2 pi i j / 2h)
    const float br = re[b] * c - im[b] * s;
    const float bi = re[b] * s + im[b] * c;
    const float ar = re[a], ai = im[a];
    re[a] = ar + br;
    im[a] = ai + bi;
    re[b] = ar - br;
    im[b] = ai - bi;
  }
  __syncthreads();
  float2* y = out + blockIdx.x * N;
  for (int i = t; i < N; i += blockDim.x) y[i] = make_float2(re[slot<LAYOUT>(i)], im[slot<LAYOUT>(i)]);
}

template __global__ void fft1024<0>(float2*, const float2*);
template __global__ void fft1024<1>(float2*, const float2*);
template __global__ void fft1024<2>(float2*, const float2*);
