// Merge sort by ranks, the way merge-path style sorts place elements: an element's place in
// the merged run is its index in its own run plus its rank in the partner run, found by a
// binary search (lower bound from the left run, upper bound from the right, so equal keys
// stay stable). The searches' addresses depend on the keys (data/ files through `file:`).
//
// merge_sort_shared: each block sorts 1024 keys in shared memory (512 threads, two keys
//   each), run length 1, 2, ..., 512, ping-ponging between two arrays.
// merge_runs_global: merges pairs of sorted 1024-key runs straight from global memory (one
//   key per thread; data/keys_runs1024.bin holds 32 runs of 1024 sorted keys).
// Grid: 32 x 512 (shared), 64 x 512 (global) over 32768 keys.

#define SEG 1024

// First position in a[0, n) whose key is >= key (upper: > key).
__device__ __forceinline__ unsigned rank_in(const unsigned* a, unsigned n, unsigned key, bool upper) {
  unsigned lo = 0, hi = n;
  while (lo < hi) {
    const unsigned mid = (lo + hi) >> 1;
    const unsigned v = a[mid];
    if (upper ? v <= key : v < key) lo = mid + 1; else hi = mid;
  }
  return lo;
}

extern "C" __global__ void merge_sort_shared(unsigned* out, const unsigned* in) {
  __shared__ unsigned buf[2][SEG];
  const unsigned base = blockIdx.x * SEG;
  for (unsigned i = threadIdx.x; i < SEG; i += blockDim.x) buf[0][i] = in[base + i];
  int src = 0;
  for (unsigned run = 1; run < SEG; run <<= 1) {
    __syncthreads();
    for (unsigned i = threadIdx.x; i < SEG; i += blockDim.x) {
      const unsigned key = buf[src][i];
      const unsigned pair = i & ~(2 * run - 1);      // first element of the two runs
      const bool right = (i & run) != 0;
      const unsigned* partner = &buf[src][pair + (right ? 0 : run)];
      const unsigned r = rank_in(partner, run, key, right);
      buf[src ^ 1][pair + (i & (run - 1)) + r] = key;
    }
    src ^= 1;
  }
  __syncthreads();
  for (unsigned i = threadIdx.x; i < SEG; i += blockDim.x) out[base + i] = buf[src][i];
}

extern "C" __global__ void merge_runs_global(unsigned* out, const unsigned* runs, unsigned run) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned key = runs[i];
  const unsigned pair = i & ~(2 * run - 1);
  const bool right = (i & run) != 0;
  const unsigned r = rank_in(runs + pair + (right ? 0 : run), run, key, right);
  out[pair + (i & (run - 1)) + r] = key;
}
