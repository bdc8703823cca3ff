// cp_async_pipeline.cu: a two-stage cp.async (LDGSTS) pipeline, the sm_80 way to stage
// global tiles in shared memory, with three shared-memory layouts for the copies:
//
//   mode 0  16-byte cp.async.cg, lane l writes chunk l of a 512-byte row: conflict-free
//   mode 1  16-byte cp.async.cg, lane l writes row l of a column: 8 lanes of a quarter-warp
//           in the same 4 banks (row pitch 512 bytes): 8 wavefronts per quarter-warp
//   mode 2  4-byte cp.async.ca, lane l writes word l of a row: conflict-free
//
// The global side reads consecutive bytes in every mode (coalesced). Each block runs
// `tiles` stages of 32 rows x 128 floats (16 KiB); after each, every thread sums a column
// of the tile (ld.shared) and block b writes its 256 column sums to out[b].
//   in: float [grid * tiles * 32][128]; out: float [grid][256]
// Launch: grid G, block 256, dynamic shared memory 2 * 16384. Parameters: in, out, tiles, mode.
#include "hopper_ptx.cuh"

HP_DEV void cp_async_16(void* dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(smem_u32(dst)), "l"(src) : "memory");
}
HP_DEV void cp_async_4(void* dst, const void* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(smem_u32(dst)), "l"(src) : "memory");
}
HP_DEV void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
HP_DEV void wait_one() { asm volatile("cp.async.wait_group 1;" ::: "memory"); }
HP_DEV void wait_all() { asm volatile("cp.async.wait_group 0;" ::: "memory"); }

// Stage one 32 x 128-float tile (rows `row0`..) into `tile`.
HP_DEV void stage(float* tile, const float* in, int row0, int mode) {
  const int t = threadIdx.x;
  if (mode == 2) {
    const int lane = t % 32, warp = t / 32;
    for (int i = 0; i < 16; ++i) {  // 4096 words, 256 at a time: row 2i + warp/4, words (warp%4)*32 + lane
      const int r = 2 * i + warp / 4, w = (warp % 4) * 32 + lane;
      cp_async_4(tile + r * 128 + w, in + (row0 + r) * 128 + w);
    }
    return;
  }
  for (int i = 0; i < 4; ++i) {  // 1024 chunks of 16 bytes, 256 at a time
    const int c = i * 256 + t;   // global chunk c: row c / 32, chunk c % 32 (= lane) of the row
    const int r = c / 32, k = c % 32;
    // mode 0 keeps the chunk in place; mode 1 stores the tile transposed by chunks (row k,
    // chunk r), so the 8 lanes of a quarter-warp write 8 rows of one 16-byte column.
    float* dst = mode == 0 ? tile + r * 128 + k * 4 : tile + k * 128 + r * 4;
    cp_async_16(dst, in + (row0 + r) * 128 + k * 4);
  }
}

extern "C" __global__ void cp_async_pipeline(const float* in, float* out, int tiles, int mode) {
  extern __shared__ __align__(16) float smem[];
  float* buf[2] = {smem, smem + 32 * 128};
  const int t = threadIdx.x;
  const int row0 = blockIdx.x * tiles * 32;
  float acc = 0.f;
  stage(buf[0], in, row0, mode);
  commit();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) stage(buf[(k + 1) % 2], in, row0 + (k + 1) * 32, mode);
    commit();
    wait_one();
    __syncthreads();
    const float* tile = buf[k % 2];
    for (int r = 0; r < 32; ++r) acc += tile[r * 128 + (t % 128)] * (t < 128 ? 1.f : 2.f);
    __syncthreads();
  }
  wait_all();
  out[blockIdx.x * 256 + t] = acc;
}
