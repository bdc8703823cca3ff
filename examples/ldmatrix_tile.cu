// ldmatrix.sync.aligned.m8n8.x4.shared.b16 over a 64x64 half tile in shared
// memory (8 KiB, row pitch 128 B = 8 chunks of 16 B), as a tensor-core GEMM
// loads its A fragments.
//
// One x4 ldmatrix reads a 16x16 sub-tile as four 8x8 matrices; lane L supplies
// the address of one 16-byte row: row (L % 16) of the sub-tile, column chunk
// (L / 16). Each 8x8 matrix (8 lanes' rows) is one wavefront at best.
//
// ldmatrix_tile_plain   : row r, chunk c at byte r*128 + c*16. The 8 rows of a
//   matrix are 128 B apart -> all in the same 4 banks: 8-way conflict,
//   8 wavefronts per matrix instead of 1.
// ldmatrix_tile_swizzled: chunk c of row r is stored at chunk c ^ (r % 8)
//   (CuTe Swizzle<3,4,3>): 8 consecutive rows put a given logical chunk in 8
//   different physical chunks -> conflict-free, 4 wavefronts per x4.
// The tile is filled from global memory with 16-byte stores (each row of 8
// chunks, swizzled the same way), and every fragment register is written out so
// nothing is dead. Block 128 threads (4 warps), one 64x64 tile per block; each
// warp loads 4 of the 16 sub-tiles. Grid = number of tiles.

#define TILE_ROWS 64
#define CHUNKS_PER_ROW 8  // 64 halves = 128 B = 8 x 16 B

__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], const void* smem_ptr) {
  unsigned addr = (unsigned)__cvta_generic_to_shared(smem_ptr);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(addr));
}

extern "C" __global__ void ldmatrix_tile_plain(uint4* out, const uint4* in) {
  __shared__ __align__(128) uint4 tile[TILE_ROWS * CHUNKS_PER_ROW];
  const uint4* tile_in = in + blockIdx.x * TILE_ROWS * CHUNKS_PER_ROW;
  for (int i = threadIdx.x; i < TILE_ROWS * CHUNKS_PER_ROW; i += blockDim.x)
    tile[i] = tile_in[i];
  __syncthreads();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint4* warp_out = out + (blockIdx.x * 4 + warp) * 4 * 32;
  for (int s = 0; s < 4; ++s) {
    int sub = warp * 4 + s;  // sub-tile index 0..15: 4 x 4 sub-tiles of 16x16
    int row = (sub / 4) * 16 + lane % 16;
    int chunk = (sub % 4) * 2 + lane / 16;
    unsigned r[4];
    ldmatrix_x4(r, &tile[row * CHUNKS_PER_ROW + chunk]);
    warp_out[s * 32 + lane] = make_uint4(r[0], r[1], r[2], r[3]);
  }
}

extern "C" __global__ void ldmatrix_tile_swizzled(uint4* out, const uint4* in) {
  __shared__ __align__(128) uint4 tile[TILE_ROWS * CHUNKS_PER_ROW];
  const uint4* tile_in = in + blockIdx.x * TILE_ROWS * CHUNKS_PER_ROW;
  for (int i = threadIdx.x; i < TILE_ROWS * CHUNKS_PER_ROW; i += blockDim.x) {
    int row = i / CHUNKS_PER_ROW, chunk = i % CHUNKS_PER_ROW;
    tile[row * CHUNKS_PER_ROW + (chunk ^ (row % 8))] = tile_in[i];
  }
  __syncthreads();
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  uint4* warp_out = out + (blockIdx.x * 4 + warp) * 4 * 32;
  for (int s = 0; s < 4; ++s) {
    int sub = warp * 4 + s;
    int row = (sub / 4) * 16 + lane % 16;
    int chunk = (sub % 4) * 2 + lane / 16;
    unsigned r[4];
    ldmatrix_x4(r, &tile[row * CHUNKS_PER_ROW + (chunk ^ (row % 8))]);
    warp_out[s * 32 + lane] = make_uint4(r[0], r[1], r[2], r[3]);
  }
}
