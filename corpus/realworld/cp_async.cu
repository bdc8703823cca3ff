// cp.async pipelines as hand-written Ampere/Hopper kernels and Triton emit them (issue 13
// item 5): 4- and 16-byte copies, commit groups and waits, and masked copies whose src-size
// is 0 (zero-fill): such a copy reads nothing, so a row past the end costs no global traffic
// and is not an out-of-bounds access even though its source address is past the buffer.
//
// rows_pipelined: each block of 256 threads owns 64 rows of 1024 floats (row r = block +
//   k * gridDim.x, k < 64, rows past n_rows masked) and walks them with a 3-stage cp.async
//   pipeline of 16-byte copies into shared memory, summing each row (one float4 per thread).
//   n_rows = 1000 (not a multiple of the grid), 16 blocks: the last stages of most blocks
//   copy with src-size 0. Out: one float per row.
// tile_zfill_4b: a 2-D tile loader with 4-byte cp.async and partial zero-fill at the right
//   edge (width 1000 floats: the last tile's columns 1000..1023 get src-size 0), 32x8 threads,
//   tiles 32x32, one cp.async.wait_all, then the transposed tile is written. 1000 x 256 floats
//   in, 256 x 1000 out. Grid (32, 8).

#include <cuda_pipeline.h>

#define STAGES 3

extern "C" __global__ void rows_pipelined(float* sums, const float* in, int n_rows) {
  __shared__ __align__(16) float stage[STAGES][1024];
  __shared__ float warp_sums[8];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  auto issue = [&](int k) {
    const int r = blockIdx.x + k * gridDim.x;
    const bool valid = r < n_rows;
    const float* src = in + static_cast<long long>(r) * 1024 + 4 * t;  // may point past the end when masked
    __pipeline_memcpy_async(&stage[k % STAGES][4 * t], src, 16, valid ? 0 : 16);
    __pipeline_commit();
  };
  for (int k = 0; k < STAGES - 1; ++k) issue(k);
  for (int k = 0; k < 64; ++k) {
    if (k + STAGES - 1 < 64) issue(k + STAGES - 1);
    else __pipeline_commit();  // keep the group count steady
    __pipeline_wait_prior(STAGES - 1);
    __syncthreads();
    const float4 v = *reinterpret_cast<const float4*>(&stage[k % STAGES][4 * t]);
    float s = (v.x + v.y) + (v.z + v.w);
    for (int d = 16; d > 0; d >>= 1) s += __shfl_xor_sync(0xffffffffu, s, d);
    if (lane == 0) warp_sums[warp] = s;
    __syncthreads();
    const int r = blockIdx.x + k * gridDim.x;
    if (t == 0 && r < n_rows) {
      float total = 0.0f;
      for (int w = 0; w < 8; ++w) total += warp_sums[w];
      sums[r] = total;
    }
  }
}

extern "C" __global__ void tile_zfill_4b(float* out, const float* in, int width, int height) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x;
  for (int j = 0; j < 32; j += 8) {
    const int y = blockIdx.y * 32 + threadIdx.y + j;
    const bool valid = x < width;
    __pipeline_memcpy_async(&tile[threadIdx.y + j][threadIdx.x], in + y * width + x, 4, valid ? 0 : 4);
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  for (int j = 0; j < 32; j += 8) {
    const int ox = blockIdx.y * 32 + threadIdx.x;   // column of out = row of in
    const int oy = blockIdx.x * 32 + threadIdx.y + j;
    if (oy < width) out[oy * height + ox] = tile[threadIdx.x][threadIdx.y + j];
  }
}
