// Tiled transpose with an XOR-swizzled tile: element (r, c) of the logical 32x32
// tile is stored at tile[r][c ^ r]. No padding, same 4 KiB (8 KiB for double).
//
//   store: a warp writes row r, columns c = lane -> physical column lane ^ r,
//          a permutation of 0..31: conflict-free
//   load : a warp reads column c, rows r = lane -> physical (lane, c ^ lane):
//          float  bank (c ^ lane) % 32, all distinct: conflict-free
//          double 8-byte elements, bank pair 2*(c ^ lane) % 32: 2 wavefronts,
//                 the minimum for a 256-byte warp access
// Matrices are n x n, n a multiple of 32; grid (n/32, n/32), block (32, 8).

#define TILE_DIM 32
#define BLOCK_ROWS 8

extern "C" __global__ void transpose_swizzled_f32(float* out, const float* in, int n) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    int r = threadIdx.y + j;
    tile[r][threadIdx.x ^ r] = in[(y + j) * n + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    int c = threadIdx.y + j;  // logical column of the tile = output row
    out[(y + j) * n + x] = tile[threadIdx.x][c ^ threadIdx.x];
  }
}

extern "C" __global__ void transpose_swizzled_f64(double* out, const double* in, int n) {
  __shared__ double tile[TILE_DIM][TILE_DIM];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    int r = threadIdx.y + j;
    tile[r][threadIdx.x ^ r] = in[(y + j) * n + x];
  }
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    int c = threadIdx.y + j;
    out[(y + j) * n + x] = tile[threadIdx.x][c ^ threadIdx.x];
  }
}
