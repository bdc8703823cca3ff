// Tree reduction with sequential addressing (Harris kernel 3): at each step the
// first s threads add sdata[tid + s] into sdata[tid]. A warp's lanes touch 32
// consecutive words: no bank conflicts, and whole warps retire together (no
// divergence until s < 32). Each block sums blockDim.x inputs into
// out[blockIdx.x]; grid = n / 256, block 256. As in Harris's slides, sdata is
// dynamic shared memory: launch with --dyn-smem 1024 (blockDim.x floats).

extern "C" __global__ void reduce_sequential(float* out, const float* in) {
  extern __shared__ float sdata[];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = in[i];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}
