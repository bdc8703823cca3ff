// Batcher's odd-even merge sort of 1024-key segments in shared memory, 512 threads.
//
// For each merge size p (1, 2, ..., 512) and each distance k (p, p/2, ..., 1), element
// x is compared with x + k when both fall in the same block of 2p elements. Thread t
// takes pair x = (k % p) + 2k*(t / k) + (t % k); pairs that run past the segment or
// cross a 2p block are skipped, so in the later stages of each merge a growing share
// of lanes is idle. The swap is two stores predicated on the key comparison (keys from
// data/keys_u32.bin through `file:`).
// Grid: 32 blocks of 512 threads over 32768 keys.

#define SEG 1024

extern "C" __global__ void oddeven_merge_sort_shared(unsigned* out, const unsigned* in) {
  __shared__ unsigned s[SEG];
  const unsigned t = threadIdx.x;
  const unsigned base = blockIdx.x * SEG;
  s[t] = in[base + t];
  s[t + SEG / 2] = in[base + t + SEG / 2];
  for (unsigned p = 1; p < SEG; p <<= 1) {
    for (unsigned k = p; k > 0; k >>= 1) {
      __syncthreads();
      const unsigned x = (k % p) + 2 * k * (t / k) + (t % k);
      const unsigned y = x + k;
      if (y < SEG && x / (2 * p) == y / (2 * p)) {
        const unsigned a = s[x];
        const unsigned b = s[y];
        if (a > b) {
          s[x] = b;
          s[y] = a;
        }
      }
    }
  }
  __syncthreads();
  out[base + t] = s[t];
  out[base + t + SEG / 2] = s[t + SEG / 2];
}
