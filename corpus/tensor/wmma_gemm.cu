// wmma_gemm.cu: C = A * B with the WMMA API, as cuda-samples' tensor-core GEMMs do: a block
// of 4 warps computes a 64 x 64 tile of C (each warp 32 x 32: 2 x 2 fragments) from 64 x 32
// tiles of A (row-major) and 32 x 64 tiles of B (row-major) staged in shared memory, rows
// `skew` elements longer than the tile (0, 8 or 16: the samples' SKEW_HALF is 16).
//   wmma_gemm_f16:  m16n16k16 f16 -> f32; ptxas reads A and B with LDSM.16.M88.4 / .MT88.4
//                   (wmma.load ... .shared.f16), C's fragments with 4 x STS.64 / LDS.64
//   wmma_gemm_tf32: m16n16k8 tf32 -> f32; nvcc's wmma.load of tf32 has no state space, so
//                   ptxas reads shared memory with generic 32-bit loads (LD.E, 4 per fragment)
// The C tile goes back through shared memory (store_matrix_sync, then 16-byte copies).
// Launch: grid (N/64, M/64), block 128; M, N multiples of 64, K of 32.
#include <cuda_fp16.h>
#include <mma.h>

using namespace nvcuda;

namespace {
constexpr int BM = 64, BN = 64, BK = 32;
}

extern "C" __global__ void __launch_bounds__(128) wmma_gemm_f16(const half* A, const half* B, float* C, int M, int N, int K,
                                                                 int skew) {
  __shared__ __align__(32) half As[BM * (BK + 16)];
  __shared__ __align__(32) half Bs[BK * (BN + 16)];
  __shared__ __align__(32) float Cs[BM * (BN + 16)];
  const int lda = BK + skew, ldb = BN + skew, ldc = BN + skew;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, warp = threadIdx.x / 32;
  const int wm = warp / 2, wn = warp % 2;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
  for (auto& row : acc)
    for (auto& f : row) wmma::fill_fragment(f, 0.0f);
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK / 8; i += 128) {  // 16-byte copies
      const int r = i / (BK / 8), c = (i % (BK / 8)) * 8;
      *reinterpret_cast<uint4*>(&As[r * lda + c]) = *reinterpret_cast<const uint4*>(&A[(size_t)(m0 + r) * K + k0 + c]);
    }
    for (int i = threadIdx.x; i < BK * BN / 8; i += 128) {
      const int r = i / (BN / 8), c = (i % (BN / 8)) * 8;
      *reinterpret_cast<uint4*>(&Bs[r * ldb + c]) = *reinterpret_cast<const uint4*>(&B[(size_t)(k0 + r) * N + n0 + c]);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &As[(32 * wm + 16 * i) * lda + kk], lda);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b[j], &Bs[kk * ldb + 32 * wn + 16 * j], ldb);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&Cs[(32 * wm + 16 * i) * ldc + 32 * wn + 16 * j], acc[i][j], ldc, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < BM * BN / 4; i += 128) {
    const int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
    *reinterpret_cast<float4*>(&C[(size_t)(m0 + r) * N + n0 + c]) = *reinterpret_cast<const float4*>(&Cs[r * ldc + c]);
  }
}

extern "C" __global__ void __launch_bounds__(128) wmma_gemm_tf32(const float* A, const float* B, float* C, int M, int N,
                                                                  int K, int skew) {
  __shared__ __align__(32) float As[BM * (BK + 16)];
  __shared__ __align__(32) float Bs[BK * (BN + 16)];
  const int lda = BK + skew, ldb = BN + skew;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN, warp = threadIdx.x / 32;
  const int wm = warp / 2, wn = warp % 2;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> acc[2][2];
  for (auto& row : acc)
    for (auto& f : row) wmma::fill_fragment(f, 0.0f);
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = threadIdx.x; i < BM * BK / 4; i += 128) {
      const int r = i / (BK / 4), c = (i % (BK / 4)) * 4;
      *reinterpret_cast<float4*>(&As[r * lda + c]) = *reinterpret_cast<const float4*>(&A[(size_t)(m0 + r) * K + k0 + c]);
    }
    for (int i = threadIdx.x; i < BK * BN / 4; i += 128) {
      const int r = i / (BN / 4), c = (i % (BN / 4)) * 4;
      *reinterpret_cast<float4*>(&Bs[r * ldb + c]) = *reinterpret_cast<const float4*>(&B[(size_t)(k0 + r) * N + n0 + c]);
    }
    __syncthreads();
    for (int kk = 0; kk < BK; kk += 8) {
      wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> a[2];
      wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> b[2];
      for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(a[i], &As[(32 * wm + 16 * i) * lda + kk], lda);
      for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(b[j], &Bs[kk * ldb + 32 * wn + 16 * j], ldb);
      for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], a[i], b[j], acc[i][j]);
    }
    __syncthreads();
  }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      wmma::store_matrix_sync(&C[(size_t)(m0 + 32 * wm + 16 * i) * N + n0 + 32 * wn + 16 * j], acc[i][j], N,
                              wmma::mem_row_major);
}
