// Matrix transpose variants beyond examples/ (which has the 32x8-thread tiles).
//
// transpose_tile32x32: one element per thread, 32x32 threads, tile[32][33] (padded). n = 1024.
//   Grid 32 x 32.
// transpose_diagonal: 32x8 threads, padded tile, blocks renumbered along diagonals
//   (bx = (bid.x + bid.y) % gridDim.x) the way the partition-camping fix does; square
//   n = 1024. Grid 32 x 32.
// transpose_float2: float2 elements, tile[32][33] of float2 (8-byte words: half-warp lane
//   groups); n = 512. Grid 16 x 16, 32x8 threads.
// transpose_u8: bytes, tile[32][32] of unsigned char: the row writes put four lanes in one
//   word; the column read tile[tx][c] puts lane tx in word 8 tx, so banks 0, 8, 16, 24 each
//   serve 8 different words: 8-way. n = 1024, grid 32 x 32, 32x8 threads.
// transpose_rect: a 2048 x 256 (rows x cols) float matrix to 256 x 2048, padded tile,
//   bounds-checked edges not needed (both multiples of 32). Grid (8, 64), 32x8 threads.
// transpose_coarse_swizzle: 64x64 float tile per block, 32x8 threads, each thread moves 16
//   elements, a 1-D tile[64 * 64] indexed r * 64 + (c ^ (r & 31)) (XOR swizzle). n = 1024,
//   grid 16 x 16.

#define TILE 32

extern "C" __global__ void transpose_tile32x32(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  const int ox = blockIdx.y * TILE + threadIdx.x, oy = blockIdx.x * TILE + threadIdx.y;
  out[oy * n + ox] = tile[threadIdx.x][threadIdx.y];
}

extern "C" __global__ void transpose_diagonal(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  const int by = blockIdx.x;
  const int bx = (blockIdx.x + blockIdx.y) % gridDim.x;
  const int x = bx * TILE + threadIdx.x, y = by * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  const int ox = by * TILE + threadIdx.x, oy = bx * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) out[(oy + j) * n + ox] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_float2(float2* out, const float2* in, int n) {
  __shared__ float2 tile[TILE][TILE + 1];
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  const int ox = blockIdx.y * TILE + threadIdx.x, oy = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) out[(oy + j) * n + ox] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_u8(unsigned char* out, const unsigned char* in, int n) {
  __shared__ unsigned char tile[TILE][TILE];
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  const int ox = blockIdx.y * TILE + threadIdx.x, oy = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) out[(oy + j) * n + ox] = tile[threadIdx.x][threadIdx.y + j];
}

// in: rows x cols, out: cols x rows
extern "C" __global__ void transpose_rect(float* out, const float* in, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  const int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * cols + x];
  __syncthreads();
  const int ox = blockIdx.y * TILE + threadIdx.x, oy = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) out[(oy + j) * rows + ox] = tile[threadIdx.x][threadIdx.y + j];
}

extern "C" __global__ void transpose_coarse_swizzle(float* out, const float* in, int n) {
  __shared__ float tile[64 * 64];
  const int x0 = blockIdx.x * 64, y0 = blockIdx.y * 64;
  for (int r = threadIdx.y; r < 64; r += 8)
    for (int c = threadIdx.x; c < 64; c += 32)
      tile[r * 64 + (c ^ (r & 31))] = in[(y0 + r) * n + x0 + c];
  __syncthreads();
  for (int r = threadIdx.y; r < 64; r += 8)
    for (int c = threadIdx.x; c < 64; c += 32)  // out row x0 + r holds input column x0 + r
      out[(x0 + r) * n + y0 + c] = tile[c * 64 + (r ^ (c & 31))];
}
