// Tiled transpose through a 32x32 shared tile, block 32x8.
//
// Each block copies a 32x32 tile of `in` into shared memory row by row (coalesced
// global reads, conflict-free shared stores: a warp writes one tile row), then
// writes the transposed tile out row by row (coalesced global writes). The
// shared READ is the problem: a warp reads one tile COLUMN, tile[threadIdx.x][...],
// so its 32 lanes are 32 rows apart:
//   float : row pitch 128 B = 32 banks -> every lane in the same bank: 32-way conflict
//   double: row pitch 256 B; every lane's 8 bytes sit on the same two banks
//           -> 32 wavefronts where 2 would do
// transpose_padded.cu and transpose_swizzled.cu fix it.
// Matrices are n x n, n a multiple of 32; grid (n/32, n/32), block (32, 8).

#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_tiled_f32(float* out, const float* in, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // transposed block offset
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_tiled_f64(double* out, const double* in, int n) {
  __shared__ double tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}
