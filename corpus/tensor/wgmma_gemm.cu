// wgmma_gemm.cu: an fp16 GEMM C = A * B (f32 accumulation, f16 result) built the way
// Triton builds its sm_90 matmuls, without TMA: cp.async copies 128 x 64 tiles of A
// (row-major, K contiguous) and 64 x 128 tiles of B (row-major, N contiguous) into shared
// memory in the 128-byte swizzle, two stages; each warpgroup (two per block) multiplies its
// 64 rows with wgmma.mma_async m64n128k16: A K-major, B N-major (imm-trans-b 1).
//
// Shared layouts (CuTe's canonical 128B-swizzled atoms, 1024-byte aligned):
//   A tile, K-major: row r, 16-byte chunk c at (r/8)*1024 + (r%8)*128 + (c ^ r%8)*16
//     descriptor of warpgroup w, k-slice s: start + 8192*w... (w*64 rows) + 32*s, SBO 1024
//   B tile, N-major: k row k, n chunk c (8 halves) at (c/8)*1024 + (k/8)*2048 + (k%8)*128
//     + ((c%8) ^ k%8)*16; descriptor of k-slice s: start + 4096*s, LBO 1024, SBO 2048
// Exercises: cp.async 16-byte copies into swizzled tiles, wgmma with both descriptor
// kinds, fence/commit/wait, f16x2 stores of the accumulators. M, N, K multiples of 128,
// 128 and 64. Launch: grid (N/128, M/128), block 256, dynamic shared memory 65536 + 1024.
#include <cuda_fp16.h>

#include <cstdint>

namespace {

constexpr int BM = 128, BN = 128, BK = 64;
constexpr int kATile = BM * BK * 2;  // 16 KiB
constexpr int kBTile = BK * BN * 2;  // 16 KiB
constexpr int kStage = kATile + kBTile;

extern __shared__ __align__(1024) unsigned char gemm_smem[];

__device__ __forceinline__ uint32_t smem_base() {
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(gemm_smem));
  return (a + 1023u) & ~1023u;
}

__device__ __forceinline__ uint64_t descriptor(uint32_t address, uint32_t lbo, uint32_t sbo) {
  return static_cast<uint64_t>((address & 0x3ffffu) >> 4) | (static_cast<uint64_t>((lbo & 0x3ffffu) >> 4) << 16) |
         (static_cast<uint64_t>((sbo & 0x3ffffu) >> 4) << 32) | (static_cast<uint64_t>(1) << 62);  // 128B swizzle
}

__device__ __forceinline__ void copy16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}

// Stage s's tiles of A (rows m0.., columns k0..) and B (rows k0.., columns n0..).
__device__ __forceinline__ void load_stage(uint32_t stage, const half* A, const half* B, int K, int N, int m0, int n0,
                                           int k0) {
  for (int i = threadIdx.x; i < BM * BK / 8; i += blockDim.x) {  // 1024 chunks of A
    const int r = i / 8, c = i % 8;
    const uint32_t dst = stage + (r / 8) * 1024 + (r % 8) * 128 + ((c ^ (r % 8)) * 16);
    copy16(dst, A + static_cast<size_t>(m0 + r) * K + k0 + c * 8);
  }
  for (int i = threadIdx.x; i < BK * BN / 8; i += blockDim.x) {  // 1024 chunks of B
    const int k = i / 16, c = i % 16;
    const uint32_t dst = stage + kATile + (c / 8) * 1024 + (k / 8) * 2048 + (k % 8) * 128 + (((c % 8) ^ (k % 8)) * 16);
    copy16(dst, B + static_cast<size_t>(k0 + k) * N + n0 + c * 8);
  }
}

__device__ __forceinline__ void wgmma_m64n128k16(float (&d)[64], uint64_t da, uint64_t db, int accumulate) {
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
      "%64, %65, p, 1, 1, 0, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(accumulate));
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256) wgmma_gemm_f16(const half* A, const half* B, half* C, int M, int N,
                                                                  int K) {
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int wg = threadIdx.x / 128;  // warpgroup: rows 64*wg .. of the tile
  const uint32_t base = smem_base();
  float d[64] = {};
  const int tiles = K / BK;
  load_stage(base, A, B, K, N, m0, n0, 0);
  asm volatile("cp.async.commit_group;" ::: "memory");
  for (int t = 0; t < tiles; ++t) {
    const uint32_t stage = base + (t % 2) * kStage;
    if (t + 1 < tiles) load_stage(base + ((t + 1) % 2) * kStage, A, B, K, N, m0, n0, (t + 1) * BK);
    asm volatile("cp.async.commit_group;" ::: "memory");
    asm volatile("cp.async.wait_group 1;" ::: "memory");
    __syncthreads();
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    for (int s = 0; s < BK / 16; ++s) {
      const uint64_t da = descriptor(stage + wg * 8 * 1024 + 32 * s, 16, 1024);
      const uint64_t db = descriptor(stage + kATile + 4096 * s, 1024, 2048);
      wgmma_m64n128k16(d, da, db, t > 0 || s > 0);
    }
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    __syncthreads();  // the next iteration's copies overwrite this stage's other half
  }
  // Accumulators: warp w of the warpgroup, lane (g, q): rows g, g + 8, columns 8j + 2q, +1.
  const int warp = (threadIdx.x / 32) % 4, lane = threadIdx.x % 32, g = lane / 4, q = lane % 4;
  const int row = m0 + 64 * wg + 16 * warp + g;
  for (int j = 0; j < BN / 8; ++j) {
    const int col = n0 + 8 * j + 2 * q;
    *reinterpret_cast<__half2*>(C + static_cast<size_t>(row) * N + col) = __floats2half2_rn(d[4 * j], d[4 * j + 1]);
    *reinterpret_cast<__half2*>(C + static_cast<size_t>(row + 8) * N + col) =
        __floats2half2_rn(d[4 * j + 2], d[4 * j + 3]);
  }
}
