// 256-bin byte histogram with a per-block histogram in shared memory.
//
// Each thread walks the input with a grid-stride loop and does
// atomicAdd(&s_hist[byte], 1) on shared memory; at the end every block adds its
// 256 bins into the global histogram (red.global.add: 256 lanes, 8 requests).
//
// histogram256: the atomic's result is unused, so ptxas turns the shared
//   `atom.add.u32 ..., 1` into ATOMS.POPC.INC, which merges lanes that hit the
//   same bin: its cost depends on how many DIFFERENT bins a warp touches.
// histogram256_rank: the atomic's old value is used (written to rank[i], the
//   element's arrival order within its bin), so it stays a value-returning
//   ATOMS.ADD: lanes hitting the same bin serialize.
// The counts depend on the data: launches.txt feeds data/histogram_input.bin
// (64 KiB, a fixed pseudo-random byte mix with a hot bin, see make_data.py).
// Grid 32 blocks x 256 threads over n = 65536 bytes: 8 bytes per thread.

#define BINS 256

extern "C" __global__ void histogram256(unsigned* bins, const unsigned char* in, int n) {
  __shared__ unsigned s_hist[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    atomicAdd(&s_hist[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], s_hist[b]);
}

extern "C" __global__ void histogram256_rank(unsigned* bins, unsigned* rank,
                                             const unsigned char* in, int n) {
  __shared__ unsigned s_hist[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    rank[i] = atomicAdd(&s_hist[in[i]], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], s_hist[b]);
}
