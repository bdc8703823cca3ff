// Image filters. Images are float, width = height = 512 unless said (1 MiB).
//
// box_filter5_shared: 5x5 mean over a 16x16 output tile, the 20x20 input tile (radius 2
//   halo) loaded into shared memory by the 16x16 threads in two rounds (400 > 256 loads),
//   the image border clamped. Grid 32 x 32.
// sepconv_rows: the row pass of a separable convolution with a radius-8 kernel in __constant__
//   memory: each 16x4 block loads 4 rows of 16*4 + 2*8 = 80 pixels (a [4][80] tile, the
//   border clamped) and each thread computes 4 outputs, 16 columns apart. Grid (8, 128).
// sepconv_cols: the column pass: 16x8 threads, a [8*4 + 16][16] tile; a warp reads two rows
//   of 16 floats (64 bytes each) at once: conflict-free. Grid (32, 16).
// conv5x5_global: the same 5x5 filter (weights in __constant__) read straight from global
//   memory through the L1, no shared tile: 25 loads per output, neighbours overlap. Grid 32x32.

#define W 512
#define H 512
__constant__ float c_row_kernel[17];
__constant__ float c_mask5[25];

__device__ __forceinline__ int clampi(int v, int lo, int hi) { return min(max(v, lo), hi); }

extern "C" __global__ void box_filter5_shared(float* out, const float* in) {
  __shared__ float tile[20][20];
  const int ox = blockIdx.x * 16, oy = blockIdx.y * 16;
  const int t = threadIdx.y * 16 + threadIdx.x;
  for (int k = t; k < 400; k += 256) {
    const int ty = k / 20, tx = k % 20;
    const int gx = clampi(ox + tx - 2, 0, W - 1), gy = clampi(oy + ty - 2, 0, H - 1);
    tile[ty][tx] = in[gy * W + gx];
  }
  __syncthreads();
  float sum = 0.0f;
  for (int dy = 0; dy < 5; ++dy)
    for (int dx = 0; dx < 5; ++dx) sum += tile[threadIdx.y + dy][threadIdx.x + dx];
  out[(oy + threadIdx.y) * W + ox + threadIdx.x] = sum * (1.0f / 25.0f);
}

#define R 8
#define ROW_STEPS 4
extern "C" __global__ void sepconv_rows(float* out, const float* in) {
  __shared__ float tile[4][16 * ROW_STEPS + 2 * R];
  const int x0 = blockIdx.x * 16 * ROW_STEPS;
  const int y = blockIdx.y * 4 + threadIdx.y;
  for (int k = threadIdx.x; k < 16 * ROW_STEPS + 2 * R; k += 16)
    tile[threadIdx.y][k] = in[y * W + clampi(x0 + k - R, 0, W - 1)];
  __syncthreads();
  for (int s = 0; s < ROW_STEPS; ++s) {
    const int c = s * 16 + threadIdx.x;
    float sum = 0.0f;
#pragma unroll
    for (int j = -R; j <= R; ++j) sum += c_row_kernel[R + j] * tile[threadIdx.y][c + R + j];
    out[y * W + x0 + c] = sum;
  }
}

#define COL_STEPS 4
extern "C" __global__ void sepconv_cols(float* out, const float* in) {
  __shared__ float tile[8 * COL_STEPS + 2 * R][16];
  const int x = blockIdx.x * 16 + threadIdx.x;
  const int y0 = blockIdx.y * 8 * COL_STEPS;
  for (int k = threadIdx.y; k < 8 * COL_STEPS + 2 * R; k += 8)
    tile[k][threadIdx.x] = in[clampi(y0 + k - R, 0, H - 1) * W + x];
  __syncthreads();
  for (int s = 0; s < COL_STEPS; ++s) {
    const int r = s * 8 + threadIdx.y;
    float sum = 0.0f;
#pragma unroll
    for (int j = -R; j <= R; ++j) sum += c_row_kernel[R + j] * tile[r + R + j][threadIdx.x];
    out[(y0 + r) * W + x] = sum;
  }
}

extern "C" __global__ void conv5x5_global(float* out, const float* in) {
  const int x = blockIdx.x * 16 + threadIdx.x, y = blockIdx.y * 16 + threadIdx.y;
  float sum = 0.0f;
#pragma unroll
  for (int dy = -2; dy <= 2; ++dy)
#pragma unroll
    for (int dx = -2; dx <= 2; ++dx)
      sum += c_mask5[(dy + 2) * 5 + dx + 2] * in[clampi(y + dy, 0, H - 1) * W + clampi(x + dx, 0, W - 1)];
  out[y * W + x] = sum;
}
