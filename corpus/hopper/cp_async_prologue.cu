// cp_async_prologue.cu: Triton's masked persistent GEMM's prologue (triton_matmul_persistent_masked):
// thread t copies 16 bytes of rows i*32 + t/8 (i = 0..3), chunk t%8 (slot chunk ^ row%8, 128-B rows)
// from in + (blk*128 + row)*960 + 16*chunk (stage 0), the next 128 bytes (stage 1), src-size 16 in a
//   register. mode 0 stage 0 only; mode 1 stage 0, barrier, stage 1 (Triton); 2 no barrier; +4 stagger
#include <cstdint>
__device__ __forceinline__ void copy16_sized(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src),
               "r"(bytes) : "memory");
}
extern "C" __global__ void pipe(unsigned* out, const unsigned char* in, int mode) {
  __shared__ __align__(1024) unsigned char tile[2][128 * 128];
  const unsigned row = threadIdx.x / 8, chunk = threadIdx.x % 8;
  const unsigned bytes = blockIdx.x < 1000000u ? 16u : 0u;
  if (mode & 4) {  // stagger the warps: warp w starts about w * 20000 cycles late
    const long long t0 = clock64();
    while (clock64() - t0 < (long long)(threadIdx.x / 32) * 20000) {
    }
  }
  mode &= 3;
#pragma unroll
  for (int i = 0; i < 4; ++i) {
    unsigned r = i * 32 + row;
    copy16_sized(&tile[0][r * 128 + 16 * (chunk ^ (r % 8))], in + (blockIdx.x * 128 + r) * 960 + 16 * chunk, bytes);
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
  if (mode == 1) __syncthreads();
  if (mode >= 1) {
#pragma unroll
    for (int i = 0; i < 4; ++i) {
      unsigned r = i * 32 + row;
      copy16_sized(&tile[1][r * 128 + 16 * (chunk ^ (r % 8))], in + (blockIdx.x * 128 + r) * 960 + 128 + 16 * chunk, bytes);
    }
  }
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  unsigned v = 0;
  for (int i = 0; i < 4; ++i) {
    unsigned r = i * 32 + row;
    v += *reinterpret_cast<const unsigned*>(&tile[0][r * 128 + 16 * (chunk ^ (r % 8))]);
    if (mode >= 1) v += *reinterpret_cast<const unsigned*>(&tile[1][r * 128 + 16 * (chunk ^ (r % 8))]);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}
// Why: Triton's kernel counts 4 LDGSTS wavefronts a warp execution in its first stage and main
// loop and 6 in its second, for these addresses. Measured on the H200 (2026-12-01 21:46 and
// 21:50): 6 in every stage, mode, grid (1 to 64 blocks), block (32 to 256 threads) and timing
// (warps staggered by 20000 cycles): warpscope's link rule (model/ldgsts_cost.h). Explained at
// 22:19: ptxas writes these LDGSTS with the predicate !P0, Triton's 4 with P0
// (cp_async_predicate.cu; analysis/sass_plan.h, store_priced_copies).
