// Kernels rewritten as `warpscope fix` suggested (bench/results/h200/fixes/README.md has the
// commands and what it printed), to measure the suggestions on the GPU against the
// originals in examples/.
//
// scan_blelloch_swz: temp[i] -> temp[i ^ ((i >> 5) & 15)]   (Swizzle<4,0,5> on elements)
// reduce_strided_swz: sdata[i] -> sdata[i ^ ((i >> 5) & 7)] (Swizzle<3,0,5>)
// smem_float4_strided_swz: tile[i] -> tile[i ^ ((i >> 3) & 1)] (Swizzle<1,0,3>, TMA 32B)
// conv3x3_pitch48: float tile[18][18] -> float tile[18][48] (pad +120 B per 72 B row): a warp's
//   two 16-wide rows then sit 48 words = 16 banks apart
// conv3x3_pitch19: the textbook's one-column pad, for comparison
// Same work, same results as the originals; only the shared-memory layout differs.

#define N_PER_BLOCK 512
#define SCAN(i) ((i) ^ (((i) >> 5) & 15))

extern "C" __global__ void scan_blelloch_swz(float* out, const float* in) {
  __shared__ float temp[N_PER_BLOCK];
  int tid = threadIdx.x;
  const float* seg_in = in + blockIdx.x * N_PER_BLOCK;
  float* seg_out = out + blockIdx.x * N_PER_BLOCK;
  temp[SCAN(tid)] = seg_in[tid];
  temp[SCAN(tid + N_PER_BLOCK / 2)] = seg_in[tid + N_PER_BLOCK / 2];
  int offset = 1;
  for (int d = N_PER_BLOCK >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      temp[SCAN(bi)] += temp[SCAN(ai)];
    }
    offset *= 2;
  }
  if (tid == 0) temp[SCAN(N_PER_BLOCK - 1)] = 0;
  for (int d = 1; d < N_PER_BLOCK; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (tid < d) {
      int ai = offset * (2 * tid + 1) - 1;
      int bi = offset * (2 * tid + 2) - 1;
      float t = temp[SCAN(ai)];
      temp[SCAN(ai)] = temp[SCAN(bi)];
      temp[SCAN(bi)] += t;
    }
  }
  __syncthreads();
  seg_out[tid] = temp[SCAN(tid)];
  seg_out[tid + N_PER_BLOCK / 2] = temp[SCAN(tid + N_PER_BLOCK / 2)];
}

#define BLOCK 256
#define RED(i) ((i) ^ (((i) >> 5) & 7))

extern "C" __global__ void reduce_strided_swz(float* out, const float* in) {
  __shared__ float sdata[BLOCK];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[RED(tid)] = in[i];
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x) sdata[RED(index)] += sdata[RED(index + s)];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[RED(0)];
}

#define F4(i) ((i) ^ (((i) >> 3) & 1))

extern "C" __global__ void smem_float4_strided_swz(float4* out, const float4* in) {
  __shared__ float4 tile[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[F4(threadIdx.x)] = in[i];
  __syncthreads();
  int warp_base = threadIdx.x & ~31;
  int lane = threadIdx.x & 31;
  float4 v = tile[F4(warp_base + (2 * lane) % 32 + (lane >= 16))];
  out[i] = make_float4(v.w, v.z, v.y, v.x);
}

#define TILE 16
#define HALO_TILE (TILE + 2)
#define PITCH 48  // warpscope fix: pad +120 B per 72 B row

__constant__ float c_filter[9] = {0.0625f, 0.125f, 0.0625f,
                                  0.125f,  0.25f,  0.125f,
                                  0.0625f, 0.125f, 0.0625f};

extern "C" __global__ void conv3x3_pitch48(float* out, const float* in, int n) {
  __shared__ float tile[HALO_TILE][PITCH];
  int tid = threadIdx.y * TILE + threadIdx.x;
  int origin_x = blockIdx.x * TILE - 1, origin_y = blockIdx.y * TILE - 1;
  for (int idx = tid; idx < HALO_TILE * HALO_TILE; idx += TILE * TILE) {
    int r = idx / HALO_TILE, c = idx % HALO_TILE;
    int gy = min(max(origin_y + r, 0), n - 1);
    int gx = min(max(origin_x + c, 0), n - 1);
    tile[r][c] = in[gy * n + gx];
  }
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int dy = 0; dy < 3; ++dy)
#pragma unroll
    for (int dx = 0; dx < 3; ++dx)
      acc += c_filter[dy * 3 + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
  out[(blockIdx.y * TILE + threadIdx.y) * n + blockIdx.x * TILE + threadIdx.x] = acc;
}

// The textbook fix for comparison: one column of padding (tile[18][19]).
extern "C" __global__ void conv3x3_pitch19(float* out, const float* in, int n) {
  __shared__ float tile[HALO_TILE][HALO_TILE + 1];
  int tid = threadIdx.y * TILE + threadIdx.x;
  int origin_x = blockIdx.x * TILE - 1, origin_y = blockIdx.y * TILE - 1;
  for (int idx = tid; idx < HALO_TILE * HALO_TILE; idx += TILE * TILE) {
    int r = idx / HALO_TILE, c = idx % HALO_TILE;
    int gy = min(max(origin_y + r, 0), n - 1);
    int gx = min(max(origin_x + c, 0), n - 1);
    tile[r][c] = in[gy * n + gx];
  }
  __syncthreads();
  float acc = 0.0f;
#pragma unroll
  for (int dy = 0; dy < 3; ++dy)
#pragma unroll
    for (int dx = 0; dx < 3; ++dx)
      acc += c_filter[dy * 3 + dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
  out[(blockIdx.y * TILE + threadIdx.y) * n + blockIdx.x * TILE + threadIdx.x] = acc;
}
