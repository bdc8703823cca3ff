// gemm_merges.cu: shared-memory GEMMs whose inner loops ptxas turns into LDS.128, as the
// register-blocked SGEMMs of the tutorials do. What each isolates (SASS pricing, issue 13 item 6):
//
//   gemm16_both128     16x16 tiles, B stored transposed in shared memory: the inner loop reads
//                      As[ty][k..k+3] and BsT[tx][k..k+3]; ptxas merges both into LDS.128 and
//                      the two groups interleave in the PTX (As k, Bs k, As k+1, ...). The old
//                      per-line plan merged neither (a group was flushed by the other's part).
//   sgemm_1d_blocktile BM = BN = 64, BK = 8, TM = 8 (512 threads, 8 results per thread): nvcc
//                      unrolls the dot loop by 2, ptxas by 8 and merges As[(row*TM + r)*BK + k..k+3]
//                      across the PTX's iterations: each LDS.128 takes parts of two iterations.
//   sgemm_2d_regtile   BM = BN = 64, BK = 8, TM = TN = 4 (256 threads), As stored transposed:
//                      regM[0..3] and regN[0..3] each one LDS.128 per k, interleaved.
//
// n = 256 (A, B, C: 256 KiB each); grids in launches.txt.
#define N_TILE 16

extern "C" __global__ void gemm16_both128(float* C, const float* A, const float* B, int n) {
  __shared__ float As[N_TILE][N_TILE];
  __shared__ float BsT[N_TILE][N_TILE];  // BsT[col][k] = B[k][col]
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * N_TILE + ty, col = blockIdx.x * N_TILE + tx;
  float acc = 0.0f;
  for (int t = 0; t < n; t += N_TILE) {
    As[ty][tx] = A[row * n + t + tx];
    BsT[tx][ty] = B[(t + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < N_TILE; ++k) acc += As[ty][k] * BsT[tx][k];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

extern "C" __global__ void sgemm_1d_blocktile(float* C, const float* A, const float* B, int n) {
  const int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int col_in = threadIdx.x % BN, row_in = threadIdx.x / BN;  // 64 columns, 8 row groups
  const int a_col = threadIdx.x % BK, a_row = threadIdx.x / BK;
  A += blockIdx.y * BM * n;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * n + blockIdx.x * BN;
  float result[TM] = {0.0f};
  for (int t = 0; t < n; t += BK) {
    As[a_row * BK + a_col] = A[a_row * n + a_col];
    Bs[row_in * BN + col_in] = B[row_in * n + col_in];
    __syncthreads();
    A += BK;
    B += BK * n;
    for (int k = 0; k < BK; ++k) {
      const float b = Bs[k * BN + col_in];
      for (int r = 0; r < TM; ++r) result[r] += As[(row_in * TM + r) * BK + k] * b;
    }
    __syncthreads();
  }
  for (int r = 0; r < TM; ++r) C[(row_in * TM + r) * n + col_in] = result[r];
}

extern "C" __global__ void sgemm_2d_regtile(float* C, const float* A, const float* B, int n) {
  const int BM = 64, BN = 64, BK = 8, TM = 4, TN = 4;
  __shared__ float AsT[BK * BM];  // AsT[k][row]
  __shared__ float Bs[BK * BN];
  const int tcol = threadIdx.x % (BN / TN), trow = threadIdx.x / (BN / TN);  // 16 x 16 threads
  A += blockIdx.y * BM * n;
  B += blockIdx.x * BN;
  C += blockIdx.y * BM * n + blockIdx.x * BN;
  float result[TM][TN] = {{0.0f}};
  float regM[TM], regN[TN];
  for (int t = 0; t < n; t += BK) {
    for (int i = threadIdx.x; i < BM * BK; i += blockDim.x) {  // A tile, transposed into AsT
      const int r = i / BK, k = i % BK;
      AsT[k * BM + r] = A[r * n + k];
    }
    for (int i = threadIdx.x; i < BK * BN; i += blockDim.x) Bs[i] = B[(i / BN) * n + i % BN];
    __syncthreads();
    A += BK;
    B += BK * n;
    for (int k = 0; k < BK; ++k) {
      for (int i = 0; i < TM; ++i) regM[i] = AsT[k * BM + trow * TM + i];
      for (int j = 0; j < TN; ++j) regN[j] = Bs[k * BN + tcol * TN + j];
      for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) result[i][j] += regM[i] * regN[j];
    }
    __syncthreads();
  }
  for (int i = 0; i < TM; ++i)
    for (int j = 0; j < TN; ++j) C[(trow * TM + i) * n + tcol * TN + j] = result[i][j];
}
