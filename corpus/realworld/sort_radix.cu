// One pass of an LSD radix sort (4-bit digits), in the three kernels such sorts launch.
//
// radix_block_histogram: each block counts the digits of its 1024 keys (4 per thread) in a
//   16-bin shared histogram (atomicAdd with the result unused: ATOMS.POPC.INC, cost by the
//   number of distinct bins per warp), then writes counts[digit * gridDim.x + block]
//   (digit-major, so one exclusive scan over the whole array gives every block's offsets).
// radix_scan_counts: one block of 256 threads scans the 16 x 32 counts (two per thread,
//   Blelloch up-sweep / down-sweep in shared memory, power-of-two strides: 2..16-way).
// radix_scatter: each block of 1024 threads sorts its 1024 keys by the digit with four
//   stable one-bit splits (a block-wide exclusive scan of the bit: shuffle scan per warp,
//   the 32 warp totals scanned by warp 0 through shared memory), counts where each digit
//   starts in the block, and writes key i to offsets[digit * gridDim.x + block] + its rank
//   among the block's keys of that digit: a data-dependent scatter. Keys and offsets come
//   from data/ (the offsets are the exact exclusive scan for shift 0, so every store lands
//   inside the 32768-key output).
// Grid: 32 blocks over 32768 keys.

#define TILE 1024
#define DIGITS 16

extern "C" __global__ void radix_block_histogram(unsigned* counts, const unsigned* keys, int shift) {
  __shared__ unsigned hist[DIGITS];
  if (threadIdx.x < DIGITS) hist[threadIdx.x] = 0;
  __syncthreads();
  const unsigned* tile = keys + blockIdx.x * TILE;
  for (int i = threadIdx.x; i < TILE; i += blockDim.x)
    atomicAdd(&hist[(tile[i] >> shift) & (DIGITS - 1)], 1u);
  __syncthreads();
  if (threadIdx.x < DIGITS) counts[threadIdx.x * gridDim.x + blockIdx.x] = hist[threadIdx.x];
}

// counts: 512 entries (16 digits x 32 blocks); offsets: their exclusive scan.
extern "C" __global__ void radix_scan_counts(unsigned* offsets, const unsigned* counts) {
  __shared__ unsigned s[512];
  const int t = threadIdx.x;
  s[2 * t] = counts[2 * t];
  s[2 * t + 1] = counts[2 * t + 1];
  int step = 1;
  for (int active = 256; active > 0; active >>= 1) {
    __syncthreads();
    if (t < active) s[step * (2 * t + 2) - 1] += s[step * (2 * t + 1) - 1];
    step <<= 1;
  }
  if (t == 0) s[511] = 0;
  for (int active = 1; active < 512; active <<= 1) {
    step >>= 1;
    __syncthreads();
    if (t < active) {
      const int left = step * (2 * t + 1) - 1;
      const int right = step * (2 * t + 2) - 1;
      const unsigned v = s[left];
      s[left] = s[right];
      s[right] += v;
    }
  }
  __syncthreads();
  offsets[2 * t] = s[2 * t];
  offsets[2 * t + 1] = s[2 * t + 1];
}

// Exclusive scan of one flag per thread over the block (1024 threads); returns the count
// of set flags in *total.
__device__ unsigned block_exclusive_scan(unsigned flag, unsigned* warp_sums, unsigned* total) {
  const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned incl = flag;
  for (int d = 1; d < 32; d <<= 1) {
    const unsigned up = __shfl_up_sync(0xffffffffu, incl, d);
    if (lane >= d) incl += up;
  }
  if (lane == 31) warp_sums[warp] = incl;
  __syncthreads();
  if (warp == 0) {
    const unsigned w = warp_sums[lane];
    unsigned wi = w;
    for (int d = 1; d < 32; d <<= 1) {
      const unsigned up = __shfl_up_sync(0xffffffffu, wi, d);
      if (lane >= d) wi += up;
    }
    warp_sums[lane] = wi - w;  // exclusive prefix of the warp totals
    if (lane == 31) *total = wi;
  }
  __syncthreads();
  const unsigned r = warp_sums[warp] + incl - flag;
  __syncthreads();  // warp_sums is reused by the next split
  return r;
}

extern "C" __global__ void radix_scatter(unsigned* out, const unsigned* keys, const unsigned* offsets, int shift) {
  __shared__ unsigned sk[TILE];
  __shared__ unsigned warp_sums[32];
  __shared__ unsigned ones_total;
  __shared__ unsigned digit_start[DIGITS];
  const unsigned t = threadIdx.x;
  unsigned key = keys[blockIdx.x * TILE + t];
  for (int b = 0; b < 4; ++b) {  // stable split on bit b of the digit: zeros first
    const unsigned bit = (key >> (shift + b)) & 1u;
    const unsigned ones_before = block_exclusive_scan(bit, warp_sums, &ones_total);
    const unsigned zeros = TILE - ones_total;
    const unsigned dest = bit ? zeros + ones_before : t - ones_before;
    sk[dest] = key;
    __syncthreads();
    key = sk[t];
    __syncthreads();
  }
  // The tile is now sorted by digit: a digit starts where it differs from its left neighbour.
  const unsigned d = (key >> shift) & (DIGITS - 1);
  const unsigned left = t > 0 ? (sk[t - 1] >> shift) & (DIGITS - 1) : DIGITS;
  if (d != left) digit_start[d] = t;
  __syncthreads();
  out[offsets[d * gridDim.x + blockIdx.x] + (t - digit_start[d])] = key;
}
