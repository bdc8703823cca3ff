// cp_async_predicate.cu: cp_async_prologue.cu's copies with src-size `nbytes != 0 ? 16 : 0` (nbytes a
// parameter): ptxas writes the LDGSTS with its source-valid predicate as P0 (`LDGSTS.E.BYPASS.128 [R15],
// desc[UR6][R4.64], P0`), where the prologue's have !P0. Same addresses: rows 960 bytes apart, 128B swizzle.
//   mode 0 stage 0 only; mode 1 stage 0, barrier, stage 1; 2 no barrier; +4 stagger (as the prologue)
#include <cstdint>
__device__ __forceinline__ void copy16_sized(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"((unsigned)__cvta_generic_to_shared(dst)), "l"(src),
               "r"(bytes) : "memory");
}
extern "C" __global__ void pipe(unsigned* out, const unsigned char* in, int mode, unsigned nbytes) {
  __shared__ __align__(1024) unsigned char tile[2][128 * 128];
  const unsigned row = threadIdx.x / 8, chunk = threadIdx.x % 8;
  const unsigned bytes = nbytes != 0u ? 16u : 0u;
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
// Why: measured on the H200 (2026-12-01 22:19), 4 LDGSTS wavefronts a warp execution, one a
// shared row, where cp_async_prologue.cu's !P0 form takes 6 (one a global line and row): the
// rule of Triton's GEMMs, whose stages ptxas writes with P0 (4) or P1 / !P0 (6) for the same
// addresses (analysis/sass_plan.h, store_priced_copies).
