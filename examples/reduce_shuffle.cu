// Reduction with warp shuffles: each warp sums its 32 values in registers with
// __shfl_down_sync (no shared memory), lane 0 of each warp writes one partial to
// shared memory (8 one-lane stores per block), and warp 0 reduces those 8
// partials with shuffles again. Shared traffic is tiny and conflict-free.
// Each thread first sums two inputs (grid-stride halves), so a block of 256
// threads covers 512 inputs: grid = n / 512.

#define BLOCK 256
#define WARPS (BLOCK / 32)

__device__ __forceinline__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

extern "C" __global__ void reduce_shuffle(float* out, const float* in) {
  __shared__ float warp_partials[WARPS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  float v = in[i] + in[i + blockDim.x];
  v = warp_sum(v);
  unsigned lane = tid % 32, warp = tid / 32;
  if (lane == 0) warp_partials[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < WARPS ? warp_partials[lane] : 0.0f;
    v = warp_sum(v);
    if (lane == 0) out[blockIdx.x] = v;
  }
}
