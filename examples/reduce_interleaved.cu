// Tree reduction with interleaved addressing (Harris, "Optimizing Parallel
// Reduction in CUDA", kernels 1 and 2). Each block sums blockDim.x = 256 inputs
// into out[blockIdx.x]; grid = n / 256.
//
// reduce_interleaved_divergent (kernel 1): `if (tid % (2*s) == 0)` keeps only every
//   (2s)-th thread active, so warps diverge and most lanes idle. The active lanes
//   of a warp still touch words inside one 32-word span: no bank conflicts, the
//   cost is divergence (and the slow % operator).
// reduce_interleaved_strided (kernel 2): `index = 2*s*tid` packs the active threads
//   into the low warps (no divergence inside a warp) but a warp's lanes are now
//   2s words apart: 2-way conflicts at s=1, 4-way at s=2, ... up to 16-way.
// The first load of each block (sdata[tid] = in[i]) is coalesced.

#define BLOCK 256

extern "C" __global__ void reduce_interleaved_divergent(float* out, const float* in) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = in[i];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    if (tid % (2 * s) == 0) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

extern "C" __global__ void reduce_interleaved_strided(float* out, const float* in) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = in[i];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[index] += sdata[index + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
