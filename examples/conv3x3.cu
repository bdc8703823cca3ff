// 3x3 convolution of an n x n float image with a halo tile in shared memory.
// Block 16x16 threads computes a 16x16 output tile; it first stages the 18x18
// input tile (the output tile plus a one-pixel halo, clamped at the image edge)
// in shared memory, 324 elements loaded by 256 threads in two rounds.
//
//   halo load : tile[r][c] with (r, c) from the linear index threadIdx.y*16 +
//               threadIdx.x: a warp covers 32 consecutive tile elements, which
//               wrap across 18-wide tile rows -> global reads touch two image
//               rows (a few more sectors than ideal); shared stores conflict-free
//   compute   : tile[ty + dy][tx + dx] for the 9 taps: a warp is two 16-wide
//               output rows, i.e. words r*18 + c and (r+1)*18 + c: 18 words apart,
//               so lanes 14/15 of row r and 0/1 of row r+1 can share a bank ->
//               a 2-way conflict on some taps.
//   filter    : __constant__ weights (uniform across the warp).
// Grid (n/16, n/16).

#define TILE 16
#define HALO_TILE (TILE + 2)

__constant__ float c_filter[9] = {0.0625f, 0.125f, 0.0625f,
                                  0.125f,  0.25f,  0.125f,
                                  0.0625f, 0.125f, 0.0625f};

extern "C" __global__ void conv3x3(float* out, const float* in, int n) {
  __shared__ float tile[HALO_TILE][HALO_TILE];
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
