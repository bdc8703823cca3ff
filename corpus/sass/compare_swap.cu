// compare_swap.cu: a bitonic sorting network of 1024 keys per block in shared memory whose
// compare-and-swap is an inlined __device__ function (as cuda-samples' sortingNetworks): the
// swap stores are predicated on key comparisons of random keys (file: input), and the
// stride-1 steps are unrolled, where ptxas merges a pair's loads and its two predicated stores
// into LDS.64 / STS.64. nvdisasm places the inlined instructions at the helper's lines (the
// innermost ones) with the call site after them; the old plan looked the merges up at the
// call site and found none, pricing the stride-1 steps as two 4-byte accesses (about 11% more
// shared wavefronts than the H200 counts). Block 512, 2 keys per thread.
#define ELEMS 1024

__device__ __forceinline__ void compare_swap(unsigned* s, unsigned a, unsigned b, bool up) {
  unsigned x = s[a];
  unsigned y = s[b];
  if ((x > y) == up) {
    s[a] = y;
    s[b] = x;
  }
}

extern "C" __global__ void bitonic_cas(unsigned* keys_out, const unsigned* keys_in) {
  __shared__ unsigned s[ELEMS];
  const unsigned t = threadIdx.x;
  keys_in += blockIdx.x * ELEMS;
  s[t] = keys_in[t];
  s[t + ELEMS / 2] = keys_in[t + ELEMS / 2];
#pragma unroll
  for (unsigned size = 2; size <= ELEMS; size <<= 1) {
    const bool up = (t & (size / 2)) == 0 || size == ELEMS;
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      const unsigned pos = 2 * t - (t & (stride - 1));
      compare_swap(s, pos, pos + stride, up);
    }
  }
  __syncthreads();
  keys_out[blockIdx.x * ELEMS + t] = s[t];
  keys_out[blockIdx.x * ELEMS + t + ELEMS / 2] = s[t + ELEMS / 2];
}

// The same network with the compare-and-swap written in the loop (no inlining): the merges
// were found before too; a control for bitonic_cas.
extern "C" __global__ void bitonic_cas_flat(unsigned* keys_out, const unsigned* keys_in) {
  __shared__ unsigned s[ELEMS];
  const unsigned t = threadIdx.x;
  keys_in += blockIdx.x * ELEMS;
  s[t] = keys_in[t];
  s[t + ELEMS / 2] = keys_in[t + ELEMS / 2];
#pragma unroll
  for (unsigned size = 2; size <= ELEMS; size <<= 1) {
    const bool up = (t & (size / 2)) == 0 || size == ELEMS;
#pragma unroll
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      const unsigned pos = 2 * t - (t & (stride - 1));
      unsigned x = s[pos], y = s[pos + stride];
      if ((x > y) == up) { s[pos] = y; s[pos + stride] = x; }
    }
  }
  __syncthreads();
  keys_out[blockIdx.x * ELEMS + t] = s[t];
  keys_out[blockIdx.x * ELEMS + t + ELEMS / 2] = s[t + ELEMS / 2];
}

// Stores predicated on a key comparison, nothing merged: ptxas keeps one STS under the
// predicate (its lanes are the PTX branch's); a control that predication changes no figure.
extern "C" __global__ void predicated_store(unsigned* out, const unsigned* keys, unsigned pivot) {
  __shared__ unsigned s[256];
  const unsigned t = threadIdx.x;
  s[t] = 0;
  __syncthreads();
  const unsigned k = keys[blockIdx.x * 256 + t];
  if (k > pivot) s[(t * 33) % 256] = k;
  __syncthreads();
  out[blockIdx.x * 256 + t] = s[255 - t];
}
