// Tiled matrix multiply C = A * B (n x n, row-major floats) with 32x32 tiles of A
// and B in shared memory (CUDA Programming Guide / Best Practices shared-memory
// GEMM). Block 32x32 threads, one C element per thread; grid (n/32, n/32).
//
//   tile loads : As[ty][tx] = A[...], Bs[ty][tx] = B[...]: coalesced global reads,
//                conflict-free shared stores (a warp writes one tile row)
//   inner loop : As[ty][k] is the same word for the whole warp (broadcast);
//                Bs[k][tx] is one tile row (conflict-free). ptxas merges four
//                consecutive As[ty][k..k+3] loads into one LDS.128 (broadcast).
//   C store    : coalesced.

#define TILE 32

extern "C" __global__ void gemm_tiled(float* C, const float* A, const float* B, int n) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += TILE) {
    As[ty][tx] = A[row * n + t + tx];
    Bs[ty][tx] = B[(t + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}
