// Work-efficient (Blelloch) exclusive scan of 512 floats per block, 256 threads,
// each thread owning two elements (GPU Gems 3, chapter 39). Grid = n / 512;
// each block scans its own 512-element segment.
//
// The up-sweep and down-sweep address temp[offset*(2*tid+1)-1] and
// temp[offset*(2*tid+2)-1]: at tree level d the lanes of a warp are 2*offset
// words apart, so conflicts grow with the level: 2-way, 4-way, ... 16-way.
//
// scan_blelloch             : plain indices.
// scan_blelloch_conflict_free: every index i is padded by CONFLICT_FREE_OFFSET(i)
//   = i / 32 (one extra word every 32), which breaks the power-of-two strides.
//   The book prints the macro as ((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS)),
//   which by C precedence shifts by far too much; this is the intended form.
// The first and last global accesses (two elements per thread, blockDim apart)
// are coalesced.

#define N_PER_BLOCK 512
#define NUM_BANKS 32
#define LOG_NUM_BANKS 5
#define CONFLICT_FREE_OFFSET(n) ((n) >> LOG_NUM_BANKS)

extern "C" __global__ void scan_blelloch(float* out, const float* in) {
  __shared__ float temp[N_PER_BLOCK];
  int tid = threadIdx.x;
  const float* seg_in = in + blockIdx.x * N_PER_BLOCK;
  float* seg_out = out + blockIdx.x * N_PER_BLOCK;
  temp[tid] = seg_in[tid];
  temp[tid + N_PER_BLOCK / 2] = seg_in[tid + N_PER_BLOCK / 2];
  int offset = 1;
  for (int d = N_PER_BLOCK >> 1; d > 0; d >>= 1) {  // up-sweep: build sums in place
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (tid == 0) temp[N_PER_BLOCK - 1] = 0;
  for (int d = 1; d < N_PER_BLOCK; d *= 2) {  // down-sweep
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  seg_out[tid] = temp[tid];
  seg_out[tid + N_PER_BLOCK / 2] = temp[tid + N_PER_BLOCK / 2];
}

extern "C" __global__ void scan_blelloch_conflict_free(float* out, const float* in) {
  __shared__ float temp[N_PER_BLOCK + N_PER_BLOCK / NUM_BANKS];
  int tid = threadIdx.x;
  const float* seg_in = in + blockIdx.x * N_PER_BLOCK;
  float* seg_out = out + blockIdx.x * N_PER_BLOCK;
  int ai = tid, bi = tid + N_PER_BLOCK / 2;
  int bank_offset_a = CONFLICT_FREE_OFFSET(ai);
  int bank_offset_b = CONFLICT_FREE_OFFSET(bi);
  temp[ai + bank_offset_a] = seg_in[ai];
  temp[bi + bank_offset_b] = seg_in[bi];
  int offset = 1;
  for (int d = N_PER_BLOCK >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1;
      int b = offset * (2 * tid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      temp[b] += temp[a];
    }
    offset *= 2;
  }
  if (tid == 0) {
    int last = N_PER_BLOCK - 1;
    temp[last + CONFLICT_FREE_OFFSET(last)] = 0;
  }
  for (int d = 1; d < N_PER_BLOCK; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int a = offset * (2 * tid + 1) - 1;
      int b = offset * (2 * tid + 2) - 1;
      a += CONFLICT_FREE_OFFSET(a);
      b += CONFLICT_FREE_OFFSET(b);
      float t = temp[a];
      temp[a] = temp[b];
      temp[b] += t;
    }
  }
  __syncthreads();
  seg_out[ai] = temp[ai + bank_offset_a];
  seg_out[bi] = temp[bi + bank_offset_b];
}
