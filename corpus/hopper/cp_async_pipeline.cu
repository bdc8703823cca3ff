// cp_async_pipeline.cu: a two-stage cp.async (LDGSTS) pipeline, the sm_80 way to stage
// global tiles in shared memory, with four shared-memory layouts for the copies:
//
//   mode 0  16-byte cp.async.cg, lane l writes chunk l of a 512-byte row: conflict-free
//   mode 1  16-byte cp.async.cg, the tile stored transposed by chunks: the 8 lanes of a
//           quarter-warp write 8 rows of one 16-byte column (8 wavefronts a quarter-warp)
//   mode 2  4-byte cp.async.ca, lane l writes word l of a row: conflict-free
//   mode 3  4-byte cp.async.ca, the tile stored column-major as SGEMM_CUDA stores A:
//           lanes 4j..4j+3 write words 512 apart in one bank: 4-way (4 wavefronts, ideal 1)
//
// The global side reads rows in every mode. `arrive` = 1 completes each stage on an
// mbarrier instead of commit/wait groups: every thread's cp.async.mbarrier.arrive.noinc
// after its copies, then a try_wait on the phase (libcu++'s cuda::memcpy_async with a
// cuda::barrier does this; SGEMM_CUDA's double-buffering kernel measured 11 LDGSTS
// wavefronts per instruction in the mode-3 pattern on the H200: mode 3 with and without
// arrive tells whether the arrivals add to them).
//
// Each block runs `tiles` stages of 32 rows x 128 floats (16 KiB); after each, every
// thread sums a column of the tile (ld.shared) and block b writes its 256 sums to out[b].
//   in: float [grid * tiles * 32][128]; out: float [grid][256]
// Launch: grid G, block 256, dynamic shared memory 2 * 16384 + 16. Parameters: in, out,
// tiles, mode, arrive.
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
HP_DEV void arrive_when_copied(uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(smem_u32(bar)) : "memory");
}

// Stage one 32 x 128-float tile (rows row0..row0+31 of `in`) into `tile`.
HP_DEV void stage(float* tile, const float* in, int row0, int mode) {
  const int t = threadIdx.x;
  if (mode >= 2) {
    for (int i = 0; i < 16; ++i) {  // 4096 words, 256 at a time
      if (mode == 2) {
        const int r = 2 * i + t / 128, c = t % 128;
        cp_async_4(tile + r * 128 + c, in + (row0 + r) * 128 + c);
      } else {
        // lanes 4j..4j+3: one row, columns 16 bytes apart (as SGEMM_CUDA's A loads)
        const int r = (t / 4) % 32, c = (t % 4) * 4 + i % 4 + 16 * (i / 4 + 4 * (t / 128));
        cp_async_4(tile + c * 32 + r, in + (row0 + r) * 128 + c);
      }
    }
    return;
  }
  for (int i = 0; i < 4; ++i) {  // 1024 chunks of 16 bytes, 256 at a time
    const int c = i * 256 + t;   // global chunk c: row c / 32, chunk c % 32 of the row
    const int r = c / 32, k = c % 32;
    float* dst = mode == 0 ? tile + r * 128 + k * 4 : tile + k * 128 + r * 4;
    cp_async_16(dst, in + (row0 + r) * 128 + k * 4);
  }
}

extern "C" __global__ void cp_async_pipeline(const float* in, float* out, int tiles, int mode, int arrive) {
  extern __shared__ __align__(16) float smem[];
  float* buf[2] = {smem, smem + 32 * 128};
  uint64_t* bar = reinterpret_cast<uint64_t*>(smem + 2 * 32 * 128);
  const int t = threadIdx.x;
  const int row0 = blockIdx.x * tiles * 32;
  if (arrive && t == 0) {
    mbar_init(&bar[0], blockDim.x);
    mbar_init(&bar[1], blockDim.x);
  }
  __syncthreads();
  float acc = 0.f;
  stage(buf[0], in, row0, mode);
  if (arrive) arrive_when_copied(&bar[0]);
  commit();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) {
      stage(buf[(k + 1) % 2], in, row0 + (k + 1) * 32, mode);
      if (arrive) arrive_when_copied(&bar[(k + 1) % 2]);
    }
    commit();
    if (arrive)
      mbar_wait(&bar[k % 2], (k / 2) & 1);
    else
      wait_one();
    __syncthreads();
    const float* tile = buf[k % 2];
    for (int r = 0; r < 32; ++r) acc += tile[r * 128 + (t % 128)] * (t < 128 ? 1.f : 2.f);
    __syncthreads();
  }
  wait_all();
  out[blockIdx.x * 256 + t] = acc;
}
