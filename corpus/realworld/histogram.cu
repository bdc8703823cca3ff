// Histograms in the forms real code uses. Inputs that decide bins come from data/ through
// `file:`: bytes_random.bin (65536 uniform bytes), bytes_hot.bin (65536 bytes, 7 in 8 of them
// the value 42: every warp hammers one bin), floats_normal.bin (16384 floats, roughly normal).
//
// hist256_shared: per-block 256-bin shared histogram, grid-stride over bytes, shared atomics
//   with the result unused (ATOMS.POPC.INC), then red.global.add of the bins. Launched on the
//   random and the hot input.
// hist256_warp_private: one 256-bin sub-histogram per warp (8 warps, 8 KiB), so lanes only
//   collide with their own warp; the sub-histograms are summed per bin at the end.
// hist256_global_atomics: no shared memory: every byte does atomicAdd on the global bins.
// hist_float_bins: 64 bins over [-4, 4) of float samples, the bin computed from the value
//   (clamped); the old count is used (value-returning ATOMS: same-bin lanes serialize).
// hist256_packed_u32: each thread loads 4 bytes as one u32 (coalesced 128 B per warp) and
//   counts each byte; shared bins strided per warp (bin * 8 + warp) as some samples do.
// Grids: 64 x 256 over 65536 bytes (4 per thread); hist_float_bins 64 x 256 over 16384
// floats; hist256_packed_u32 32 x 256 over 16384 words.

#define BINS 256

extern "C" __global__ void hist256_shared(unsigned* bins, const unsigned char* in, int n) {
  __shared__ unsigned h[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) h[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&h[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    if (h[b]) atomicAdd(&bins[b], h[b]);
}

extern "C" __global__ void hist256_warp_private(unsigned* bins, const unsigned char* in, int n) {
  __shared__ unsigned h[8][BINS];  // blockDim.x == 256: 8 warps
  const int warp = threadIdx.x >> 5;
  for (int b = threadIdx.x; b < 8 * BINS; b += blockDim.x) (&h[0][0])[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&h[warp][in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    unsigned sum = 0;
    for (int w = 0; w < 8; ++w) sum += h[w][b];
    atomicAdd(&bins[b], sum);
  }
}

extern "C" __global__ void hist256_global_atomics(unsigned* bins, const unsigned char* in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&bins[in[i]], 1u);
}

// ranks[i]: the sample's arrival order within its bin in this block.
extern "C" __global__ void hist_float_bins(unsigned* bins, unsigned* ranks, const float* x, int n) {
  __shared__ unsigned h[64];
  if (threadIdx.x < 64) h[threadIdx.x] = 0;
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = __float2int_rd((x[i] + 4.0f) * 8.0f);
    b = min(max(b, 0), 63);
    ranks[i] = atomicAdd(&h[b], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 64) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}

extern "C" __global__ void hist256_packed_u32(unsigned* bins, const unsigned* in, int n_words) {
  __shared__ unsigned h[BINS * 8];  // bin b of warp w at h[b * 8 + w]
  const int warp = threadIdx.x >> 5;
  for (int b = threadIdx.x; b < BINS * 8; b += blockDim.x) h[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n_words; i += gridDim.x * blockDim.x) {
    const unsigned w = in[i];
    atomicAdd(&h[((w >> 0) & 0xff) * 8 + warp], 1u);
    atomicAdd(&h[((w >> 8) & 0xff) * 8 + warp], 1u);
    atomicAdd(&h[((w >> 16) & 0xff) * 8 + warp], 1u);
    atomicAdd(&h[((w >> 24) & 0xff) * 8 + warp], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
    unsigned sum = 0;
    for (int w = 0; w < 8; ++w) sum += h[b * 8 + w];
    atomicAdd(&bins[b], sum);
  }
}
