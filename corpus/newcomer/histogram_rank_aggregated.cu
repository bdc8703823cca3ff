// histogram_rank_aggregated.cu: examples/histogram.cu's histogram256_rank rewritten as
// `warpscope fix` advises for its hot bins: warp-aggregated atomics. __match_any_sync groups
// the lanes of one bin, the group's leader adds the group's size with one atomicAdd, and each
// lane's rank is the old value plus the lanes of its group below it. warpscope fix predicts
// the shared atomics of this code at 6229 wavefronts (18399 for the original); this kernel
// is that code, to measure on the H200.
// Grid 32, block 256; in: 65536 bytes (examples/data/histogram_input.bin).
#define BINS 256

extern "C" __global__ void histogram256_rank_aggregated(unsigned* bins, unsigned* rank, const unsigned char* in,
                                                        int n) {
  __shared__ unsigned s_hist[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) s_hist[b] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned bin = in[i];
    const unsigned peers = __match_any_sync(__activemask(), bin);
    const int leader = __ffs(peers) - 1;
    unsigned old = 0;
    if (lane == static_cast<unsigned>(leader)) old = atomicAdd(&s_hist[bin], __popc(peers));
    old = __shfl_sync(peers, old, leader);
    rank[i] = old + __popc(peers & ((1u << lane) - 1));
  }
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], s_hist[b]);
}
