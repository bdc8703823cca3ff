// mma_gemm.cu: an fp16 GEMM C = A * B (f32 accumulation, f16 result) in the style of
// CUTLASS 2 on sm_80: cp.async copies 128 x 32 tiles of A (row-major) and 32 x 128 tiles of B
// (row-major) into padded shared tiles, two stages; 8 warps (2 x 4), each computing 64 x 32
// of the block's 128 x 128 with mma.sync.m16n8k16 fed by ldmatrix (A: .x4; B: .x4.trans).
//
//   A tile: 128 rows x 32 halves, rows 40 halves apart (80 bytes: an 8-row ldmatrix read
//           touches 8 different 16-byte bank groups, 80/16 = 5 is odd)
//   B tile:  32 rows x 128 halves, rows 136 halves apart (272 bytes: 17 is odd)
// `pad` = 0 drops the padding (rows 64 and 256 bytes apart): the ldmatrix reads then conflict,
// 4-way for A (rows 64 bytes apart: 2 rows per 128 bytes) and 8-way for B.
// Launch: grid (N/128, M/128), block 256, no dynamic shared memory; M, N multiples of 128,
// K of 32.
#include <cuda_fp16.h>

#include <cstdint>

namespace {

constexpr int BM = 128, BN = 128, BK = 32;
constexpr int kAStride = BK + 8, kBStride = BN + 8;  // halves, padded

__device__ __forceinline__ void copy16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
}

__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t address) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
               : "r"(address));
}

__device__ __forceinline__ void mma_16816(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

}  // namespace

extern "C" __global__ void __launch_bounds__(256) mma_gemm_f16(const half* A, const half* B, half* C, int M, int N, int K,
                                                                int pad) {
  __shared__ __align__(16) half As[2][BM * kAStride];
  __shared__ __align__(16) half Bs[2][BK * kBStride];
  const int a_stride = pad ? kAStride : BK, b_stride = pad ? kBStride : BN;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm = warp / 4, wn = warp % 4;  // warp tile: rows 64*wm.., columns 32*wn..
  float acc[4][4][4] = {};                 // [m16 tile][n8 tile][fragment]

  auto load = [&](int stage, int k0) {
    for (int i = threadIdx.x; i < BM * BK / 8; i += 256) {  // 512 chunks of A
      const int r = i / (BK / 8), c = i % (BK / 8);
      copy16(static_cast<uint32_t>(__cvta_generic_to_shared(&As[stage][r * a_stride + c * 8])),
             A + static_cast<size_t>(m0 + r) * K + k0 + c * 8);
    }
    for (int i = threadIdx.x; i < BK * BN / 8; i += 256) {  // 512 chunks of B
      const int r = i / (BN / 8), c = i % (BN / 8);
      copy16(static_cast<uint32_t>(__cvta_generic_to_shared(&Bs[stage][r * b_stride + c * 8])),
             B + static_cast<size_t>(k0 + r) * N + n0 + c * 8);
    }
    asm volatile("cp.async.commit_group;" ::: "memory");
  };

  const int tiles = K / BK;
  load(0, 0);
  for (int t = 0; t < tiles; ++t) {
    const int stage = t % 2;
    if (t + 1 < tiles) {
      load(stage ^ 1, (t + 1) * BK);
      asm volatile("cp.async.wait_group 1;" ::: "memory");
    } else {
      asm volatile("cp.async.wait_group 0;" ::: "memory");
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 16) {
      uint32_t a[4][4], b[2][4];
      for (int i = 0; i < 4; ++i) {  // A rows 64*wm + 16i + lane%16, columns kk + 8*(lane/16)
        const int r = 64 * wm + 16 * i + lane % 16, c = kk + 8 * (lane / 16);
        ldmatrix_x4(a[i], static_cast<uint32_t>(__cvta_generic_to_shared(&As[stage][r * a_stride + c])));
      }
      for (int j = 0; j < 2; ++j) {  // B rows kk + 8*((lane/8)%2) + lane%8, columns 32*wn + 16j + 8*(lane/16)
        const int r = kk + 8 * ((lane / 8) % 2) + lane % 8, c = 32 * wn + 16 * j + 8 * (lane / 16);
        ldmatrix_x4_trans(b[j], static_cast<uint32_t>(__cvta_generic_to_shared(&Bs[stage][r * b_stride + c])));
      }
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) mma_16816(acc[i][j], a[i], b[j / 2][2 * (j % 2)], b[j / 2][2 * (j % 2) + 1]);
    }
    __syncthreads();
  }
  const int g = lane / 4, q = lane % 4;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const int row = m0 + 64 * wm + 16 * i + g, col = n0 + 32 * wn + 8 * j + 2 * q;
      *reinterpret_cast<__half2*>(C + static_cast<size_t>(row) * N + col) = __floats2half2_rn(acc[i][j][0], acc[i][j][1]);
      *reinterpret_cast<__half2*>(C + static_cast<size_t>(row + 8) * N + col) =
          __floats2half2_rn(acc[i][j][2], acc[i][j][3]);
    }
}
