// Naive matrix transpose: out[x][y] = in[y][x], one element per thread.
//
// Access pattern (block 32x8, one warp = one row segment of 32 threads):
//   read  in[y*n + x]   lanes read 32 consecutive elements  -> coalesced
//                       (float: 4 sectors per request, double: 8 sectors)
//   write out[x*n + y]  lanes write one element per row, n elements apart
//                       -> 32 sectors per request, one per lane
// No shared memory. This is the baseline the tiled versions improve on.
// Matrices are n x n, n a multiple of 32; grid (n/32, n/32), block (32, 8):
// each thread handles 4 rows, 8 apart.

#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_naive_f32(float* out, const float* in, int n) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[x * n + (y + j)] = in[(y + j) * n + x];
}

extern "C" __global__ void transpose_naive_f64(double* out, const double* in, int n) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[x * n + (y + j)] = in[(y + j) * n + x];
}
