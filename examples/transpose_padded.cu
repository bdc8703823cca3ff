// Tiled transpose with a padded tile, tile[32][33]: the C++ template kernel of the
// examples (its names are mangled: _Z16transpose_paddedIfEvPT_PKS0_i and the
// double instantiation), to exercise kernel-name lookup.
//
// Same data flow as transpose_tiled.cu. The extra column makes the row pitch
// 33 elements, so a warp reading a tile column touches:
//   float : word (33*lane + c) -> bank (lane + c) % 32: all 32 banks, conflict-free
//   double: 8-byte word pitch 33*8 = 264 B -> banks 2*lane+const (mod 32): lanes
//           0..15 cover all 32 banks, so 2 wavefronts, the minimum for 256 B
// The padded stores (one tile row per warp) stay conflict-free.
// Matrices are n x n, n a multiple of 32; grid (n/32, n/32), block (32, 8).

#define TILE_DIM 32
#define BLOCK_ROWS 8

template <typename T>
__global__ void transpose_padded(T* out, const T* in, int n) {
  __shared__ T tile[TILE_DIM][TILE_DIM + 1];
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

template __global__ void transpose_padded<float>(float*, const float*, int);
template __global__ void transpose_padded<double>(double*, const double*, int);
