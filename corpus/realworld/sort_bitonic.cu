// Bitonic sorting networks on random 32-bit keys (keys come from data/keys_u32.bin through
// `file:`, so the GPU and warpscope see the same comparisons).
//
// bitonic_sort_shared: each block sorts one 1024-key segment in shared memory, 512 threads,
//   one compare-and-swap per thread per stage, 55 stages. Lanes of a warp read s[lo], s[hi]
//   with lo = 2t - (t & (stride-1)), hi = lo + stride: for stride >= 32 the warp's lo are 32
//   consecutive words (conflict-free), for stride < 32 they are pairs of runs 2*stride apart
//   (2-way conflicts). The swap is two stores predicated on the comparison: which lanes store
//   depends on the keys.
// bitonic_sort_shared_kv: the same network carrying a 32-bit value beside each key (two
//   arrays, four predicated stores per swap).
// bitonic_merge_global: one stage of the merge for strides beyond a block's segment, in
//   global memory (one compare-and-swap per thread, predicated global stores).
// Grid: 32 blocks of 512 threads over 32768 keys (shared); 64 x 256 threads (global stage).

#define SEG 1024

__device__ __forceinline__ unsigned pair_low(unsigned t, unsigned stride) {
  return 2 * t - (t & (stride - 1));
}

extern "C" __global__ void bitonic_sort_shared(unsigned* out, const unsigned* in, int ascending) {
  __shared__ unsigned s[SEG];
  const unsigned t = threadIdx.x;
  const unsigned base = blockIdx.x * SEG;
  s[t] = in[base + t];
  s[t + SEG / 2] = in[base + t + SEG / 2];
  for (unsigned size = 2; size <= SEG; size <<= 1) {
    const bool up = ((t & (size / 2)) == 0) == (ascending != 0);
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      const unsigned lo = pair_low(t, stride);
      const unsigned a = s[lo];
      const unsigned b = s[lo + stride];
      if ((a > b) == up) {
        s[lo] = b;
        s[lo + stride] = a;
      }
    }
  }
  __syncthreads();
  out[base + t] = s[t];
  out[base + t + SEG / 2] = s[t + SEG / 2];
}

extern "C" __global__ void bitonic_sort_shared_kv(unsigned* keys_out, unsigned* vals_out,
                                                  const unsigned* keys_in, const unsigned* vals_in) {
  __shared__ unsigned sk[SEG];
  __shared__ unsigned sv[SEG];
  const unsigned t = threadIdx.x;
  const unsigned base = blockIdx.x * SEG;
  for (unsigned i = t; i < SEG; i += blockDim.x) {
    sk[i] = keys_in[base + i];
    sv[i] = vals_in[base + i];
  }
  for (unsigned size = 2; size <= SEG; size <<= 1) {
    const bool up = (t & (size / 2)) == 0;
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      const unsigned lo = pair_low(t, stride);
      const unsigned hi = lo + stride;
      const unsigned ka = sk[lo], kb = sk[hi];
      if ((ka > kb) == up) {
        const unsigned va = sv[lo], vb = sv[hi];
        sk[lo] = kb;
        sk[hi] = ka;
        sv[lo] = vb;
        sv[hi] = va;
      }
    }
  }
  __syncthreads();
  for (unsigned i = t; i < SEG; i += blockDim.x) {
    keys_out[base + i] = sk[i];
    vals_out[base + i] = sv[i];
  }
}

// keys: n keys in place; size: the bitonic sequence length being merged; stride: this stage's.
extern "C" __global__ void bitonic_merge_global(unsigned* keys, unsigned size, unsigned stride) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;  // one pair per thread
  const unsigned lo = pair_low(t, stride);
  const unsigned hi = lo + stride;
  const bool up = (lo & size) == 0;
  const unsigned a = keys[lo];
  const unsigned b = keys[hi];
  if ((a > b) == up) {
    keys[lo] = b;
    keys[hi] = a;
  }
}
