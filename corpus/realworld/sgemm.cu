// SGEMM, C = alpha * A B + beta * C, row-major, the usual steps from a naive kernel to warp
// tiling (our code). A is M x K, B is K x N. M = N = K = 256 for the kernels up to 1-D block
// tiling (grids below for that size), M = N = 512, K = 128 from 2-D block tiling on.
//
// sgemm_naive: one C element per thread, threads (x = row!) so a warp walks down a column
//   of A and C (uncoalesced: the classic first mistake). Block 32x32, grid 8x8.
// sgemm_coalesced: the same with x = column: a warp reads one A element (broadcast) and 32
//   consecutive B elements. Block 32x32 (as 1024 threads), grid 8x8.
// sgemm_smem16: 16x16 shared tiles (As, Bs), one element per thread: the inner loop reads
//   As[ty][k] (broadcast) and Bs[k][tx]; ptxas merges 4 consecutive k into LDS.128 on both
//   (the case issue 13 item 6 measures). Block 16x16, grid 16x16.
// sgemm_smem32: 32x32 tiles, block 32x32. Grid 8x8.
// sgemm_blocktile_1d: BM = BN = 64, BK = 8, each thread computes TM = 8 results of a column
//   (64 * 64 / 8 = 512 threads), As[BM][BK] and Bs[BK][BN]. Grid 4x4.
// sgemm_blocktile_2d: BM = BN = 128, BK = 8, TM = TN = 8 per thread (256 threads), register
//   caches of a column of As and a row of Bs per k. Grid 4x4.
// sgemm_vectorized: the 2-D blocktiling with float4 global loads, As stored transposed
//   (As[BK][BM]) so the inner loop reads float4 of both tiles. Grid 4x4.
// sgemm_warptile: BM = BN = 128, BK = 16, 128 threads = 4 warps, each warp a 64x64 sub-tile
//   computed as 2x2 sub-tiles of 32x32, each lane 4 rows x 8 columns of each (8 x 16 = 128
//   accumulators per lane), As transposed, float4 global loads. Grid 4x4.
// sgemm_double_buffer: 64x64 tiles, BK = 16, 256 threads (4x4 results each), two shared
//   buffers: the next tile's global loads are issued into registers before the current
//   tile's math and stored into the other buffer after it, one barrier per tile. Grid 8x8.

extern "C" __global__ void sgemm_naive(float* Cm, const float* A, const float* B, int M, int N, int K, float alpha,
                                       float beta) {
  const int row = blockIdx.x * 32 + threadIdx.x;
  const int col = blockIdx.y * 32 + threadIdx.y;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  Cm[row * N + col] = alpha * acc + beta * Cm[row * N + col];
}

extern "C" __global__ void sgemm_coalesced(float* Cm, const float* A, const float* B, int M, int N, int K,
                                           float alpha, float beta) {
  const int row = blockIdx.y * 32 + threadIdx.x / 32;
  const int col = blockIdx.x * 32 + threadIdx.x % 32;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  Cm[row * N + col] = alpha * acc + beta * Cm[row * N + col];
}

template <int TILE>
__global__ void sgemm_smem(float* Cm, const float* A, const float* B, int M, int N, int K, float alpha, float beta) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    As[ty][tx] = A[row * K + k0 + tx];
    Bs[ty][tx] = B[(k0 + ty) * N + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; ++k) acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  Cm[row * N + col] = alpha * acc + beta * Cm[row * N + col];
}
template __global__ void sgemm_smem<16>(float*, const float*, const float*, int, int, int, float, float);
template __global__ void sgemm_smem<32>(float*, const float*, const float*, int, int, int, float, float);

// 1-D block tiling: thread t owns column t % 64 and rows (t / 64) * 8 .. + 7 of the tile.
extern "C" __global__ void sgemm_blocktile_1d(float* Cm, const float* A, const float* B, int M, int N, int K,
                                              float alpha, float beta) {
  const int BM = 64, BN = 64, BK = 8, TM = 8;
  __shared__ float As[64 * 8];
  __shared__ float Bs[8 * 64];
  const int t = threadIdx.x;
  const int tcol = t % BN, trow = t / BN;
  const float* a = A + blockIdx.y * BM * K;
  const float* b = B + blockIdx.x * BN;
  const int a_row = t / BK, a_col = t % BK;  // 512 threads load the 64x8 A tile
  const int b_row = t / BN, b_col = t % BN;  // and the 8x64 B tile
  float acc[TM] = {0.0f};
  for (int k0 = 0; k0 < K; k0 += BK) {
    As[a_row * BK + a_col] = a[a_row * K + k0 + a_col];
    Bs[b_row * BN + b_col] = b[(k0 + b_row) * N + b_col];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      const float bv = Bs[k * BN + tcol];
      for (int m = 0; m < TM; ++m) acc[m] += As[(trow * TM + m) * BK + k] * bv;
    }
    __syncthreads();
  }
  float* c = Cm + (blockIdx.y * BM + trow * TM) * N + blockIdx.x * BN + tcol;
  for (int m = 0; m < TM; ++m) c[m * N] = alpha * acc[m] + beta * c[m * N];
}

// 2-D block tiling: 256 threads, thread (tr, tc) = (t / 16, t % 16) owns an 8x8 block of results.
extern "C" __global__ void sgemm_blocktile_2d(float* Cm, const float* A, const float* B, int M, int N, int K,
                                              float alpha, float beta) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];
  const int t = threadIdx.x;
  const int tr = t / (BN / TN), tc = t % (BN / TN);
  const float* a = A + blockIdx.y * BM * K;
  const float* b = B + blockIdx.x * BN;
  float acc[TM][TN] = {};
  float ra[TM], rb[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = t; i < BM * BK; i += 256) As[i] = a[(i / BK) * K + k0 + i % BK];
    for (int i = t; i < BK * BN; i += 256) Bs[i] = b[(k0 + i / BN) * N + i % BN];
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int m = 0; m < TM; ++m) ra[m] = As[(tr * TM + m) * BK + k];
      for (int n = 0; n < TN; ++n) rb[n] = Bs[k * BN + tc * TN + n];
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) acc[m][n] += ra[m] * rb[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; ++n) {
      float* c = Cm + (blockIdx.y * BM + tr * TM + m) * N + blockIdx.x * BN + tc * TN + n;
      *c = alpha * acc[m][n] + beta * *c;
    }
}

// Vectorized: float4 global loads; A's tile stored transposed so both inner-loop reads are float4.
extern "C" __global__ void sgemm_vectorized(float* Cm, const float* A, const float* B, int M, int N, int K,
                                            float alpha, float beta) {
  constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
  __shared__ float AsT[BK * BM];
  __shared__ float Bs[BK * BN];
  const int t = threadIdx.x;
  const int tr = t / (BN / TN), tc = t % (BN / TN);
  const float* a = A + blockIdx.y * BM * K;
  const float* b = B + blockIdx.x * BN;
  const int a_row = t / (BK / 4), a_c4 = t % (BK / 4);  // 128 rows x 2 float4
  const int b_row = t / (BN / 4), b_c4 = t % (BN / 4);  // 8 rows x 32 float4
  float acc[TM][TN] = {};
  float ra[TM], rb[TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    if (t < BM * BK / 4) {
      const float4 va = *reinterpret_cast<const float4*>(&a[a_row * K + k0 + a_c4 * 4]);
      AsT[(a_c4 * 4 + 0) * BM + a_row] = va.x;
      AsT[(a_c4 * 4 + 1) * BM + a_row] = va.y;
      AsT[(a_c4 * 4 + 2) * BM + a_row] = va.z;
      AsT[(a_c4 * 4 + 3) * BM + a_row] = va.w;
      *reinterpret_cast<float4*>(&Bs[b_row * BN + b_c4 * 4]) =
          *reinterpret_cast<const float4*>(&b[(k0 + b_row) * N + b_c4 * 4]);
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int m = 0; m < TM; m += 4) *reinterpret_cast<float4*>(&ra[m]) = *reinterpret_cast<float4*>(&AsT[k * BM + tr * TM + m]);
      for (int n = 0; n < TN; n += 4) *reinterpret_cast<float4*>(&rb[n]) = *reinterpret_cast<float4*>(&Bs[k * BN + tc * TN + n]);
      for (int m = 0; m < TM; ++m)
        for (int n = 0; n < TN; ++n) acc[m][n] += ra[m] * rb[n];
    }
    __syncthreads();
  }
  for (int m = 0; m < TM; ++m)
    for (int n = 0; n < TN; n += 4) {
      float4* c = reinterpret_cast<float4*>(Cm + (blockIdx.y * BM + tr * TM + m) * N + blockIdx.x * BN + tc * TN + n);
      float4 old = *c;
      old.x = alpha * acc[m][n + 0] + beta * old.x;
      old.y = alpha * acc[m][n + 1] + beta * old.y;
      old.z = alpha * acc[m][n + 2] + beta * old.z;
      old.w = alpha * acc[m][n + 3] + beta * old.w;
      *c = old;
    }
}

// Warp tiling: 4 warps in a 2x2 arrangement over the 128x128 block tile, each warp 64x64 as
// WMITER x WNITER = 2 x 2 sub-tiles of 32x32; lane (lr, lc) = (lane / 4, lane % 4) owns a 4x8
// piece of each sub-tile (32 / 8 = 4 rows, 32 / 4 = 8 columns).
extern "C" __global__ void sgemm_warptile(float* Cm, const float* A, const float* B, int M, int N, int K,
                                          float alpha, float beta) {
  constexpr int BM = 128, BN = 128, BK = 16, WM = 64, WN = 64, WMITER = 2, WNITER = 2;
  constexpr int SUBM = WM / WMITER, SUBN = WN / WNITER;  // 32 x 32
  constexpr int TM = SUBM / 8, TN = SUBN / 4;            // 4 x 8 per lane per sub-tile
  __shared__ float AsT[BK * BM];
  __shared__ float Bs[BK * BN];
  const int t = threadIdx.x, warp = t / 32, lane = t % 32;
  const int wr = warp / (BN / WN), wc = warp % (BN / WN);
  const int lr = lane / 4, lc = lane % 4;
  const float* a = A + blockIdx.y * BM * K;
  const float* b = B + blockIdx.x * BN;
  float acc[WMITER * TM][WNITER * TN] = {};
  float ra[WMITER * TM], rb[WNITER * TN];
  for (int k0 = 0; k0 < K; k0 += BK) {
    for (int i = t; i < BM * BK / 4; i += 128) {  // A: 128 rows x 4 float4
      const int r = i / (BK / 4), c4 = i % (BK / 4);
      const float4 va = *reinterpret_cast<const float4*>(&a[r * K + k0 + c4 * 4]);
      AsT[(c4 * 4 + 0) * BM + r] = va.x;
      AsT[(c4 * 4 + 1) * BM + r] = va.y;
      AsT[(c4 * 4 + 2) * BM + r] = va.z;
      AsT[(c4 * 4 + 3) * BM + r] = va.w;
    }
    for (int i = t; i < BK * BN / 4; i += 128) {  // B: 16 rows x 32 float4
      const int r = i / (BN / 4), c4 = i % (BN / 4);
      *reinterpret_cast<float4*>(&Bs[r * BN + c4 * 4]) = *reinterpret_cast<const float4*>(&b[(k0 + r) * N + c4 * 4]);
    }
    __syncthreads();
    for (int k = 0; k < BK; ++k) {
      for (int wm = 0; wm < WMITER; ++wm)
        for (int m = 0; m < TM; ++m) ra[wm * TM + m] = AsT[k * BM + wr * WM + wm * SUBM + lr * TM + m];
      for (int wn = 0; wn < WNITER; ++wn)
        for (int n = 0; n < TN; ++n) rb[wn * TN + n] = Bs[k * BN + wc * WN + wn * SUBN + lc * TN + n];
      for (int m = 0; m < WMITER * TM; ++m)
        for (int n = 0; n < WNITER * TN; ++n) acc[m][n] += ra[m] * rb[n];
    }
    __syncthreads();
  }
  for (int wm = 0; wm < WMITER; ++wm)
    for (int m = 0; m < TM; ++m)
      for (int wn = 0; wn < WNITER; ++wn)
        for (int n = 0; n < TN; n += 4) {
          const int row = blockIdx.y * BM + wr * WM + wm * SUBM + lr * TM + m;
          const int col = blockIdx.x * BN + wc * WN + wn * SUBN + lc * TN + n;
          float4* c = reinterpret_cast<float4*>(Cm + row * N + col);
          float4 old = *c;
          const float* v = &acc[wm * TM + m][wn * TN + n];
          old.x = alpha * v[0] + beta * old.x;
          old.y = alpha * v[1] + beta * old.y;
          old.z = alpha * v[2] + beta * old.z;
          old.w = alpha * v[3] + beta * old.w;
          *c = old;
        }
}

// Double buffering: 64x64 tile, BK = 16, 256 threads as 16x16, each 4x4 results.
extern "C" __global__ void sgemm_double_buffer(float* Cm, const float* A, const float* B, int M, int N, int K,
                                               float alpha, float beta) {
  constexpr int BM = 64, BN = 64, BK = 16;
  __shared__ float As[2][BK][BM];  // transposed: As[k][m]
  __shared__ float Bs[2][BK][BN];
  const int t = threadIdx.x, tr = t / 16, tc = t % 16;
  const float* a = A + blockIdx.y * BM * K;
  const float* b = B + blockIdx.x * BN;
  const int a_r = t / 4, a_c4 = t % 4;    // 64 rows x 4 float4 of A
  const int b_r = t / 16, b_c4 = t % 16;  // 16 rows x 16 float4 of B
  float4 na = *reinterpret_cast<const float4*>(&a[a_r * K + a_c4 * 4]);
  float4 nb = *reinterpret_cast<const float4*>(&b[b_r * N + b_c4 * 4]);
  As[0][a_c4 * 4 + 0][a_r] = na.x;
  As[0][a_c4 * 4 + 1][a_r] = na.y;
  As[0][a_c4 * 4 + 2][a_r] = na.z;
  As[0][a_c4 * 4 + 3][a_r] = na.w;
  *reinterpret_cast<float4*>(&Bs[0][b_r][b_c4 * 4]) = nb;
  __syncthreads();
  float acc[4][4] = {};
  int cur = 0;
  for (int k0 = 0; k0 < K; k0 += BK) {
    const bool more = k0 + BK < K;
    if (more) {
      na = *reinterpret_cast<const float4*>(&a[a_r * K + k0 + BK + a_c4 * 4]);
      nb = *reinterpret_cast<const float4*>(&b[(k0 + BK + b_r) * N + b_c4 * 4]);
    }
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      const float4 ra = *reinterpret_cast<const float4*>(&As[cur][k][tr * 4]);
      const float4 rb = *reinterpret_cast<const float4*>(&Bs[cur][k][tc * 4]);
      const float av[4] = {ra.x, ra.y, ra.z, ra.w}, bv[4] = {rb.x, rb.y, rb.z, rb.w};
      for (int m = 0; m < 4; ++m)
        for (int n = 0; n < 4; ++n) acc[m][n] += av[m] * bv[n];
    }
    if (more) {
      As[cur ^ 1][a_c4 * 4 + 0][a_r] = na.x;
      As[cur ^ 1][a_c4 * 4 + 1][a_r] = na.y;
      As[cur ^ 1][a_c4 * 4 + 2][a_r] = na.z;
      As[cur ^ 1][a_c4 * 4 + 3][a_r] = na.w;
      *reinterpret_cast<float4*>(&Bs[cur ^ 1][b_r][b_c4 * 4]) = nb;
    }
    __syncthreads();
    cur ^= 1;
  }
  for (int m = 0; m < 4; ++m) {
    float4* c = reinterpret_cast<float4*>(Cm + (blockIdx.y * BM + tr * 4 + m) * N + blockIdx.x * BN + tc * 4);
    float4 old = *c;
    old.x = alpha * acc[m][0] + beta * old.x;
    old.y = alpha * acc[m][1] + beta * old.y;
    old.z = alpha * acc[m][2] + beta * old.z;
    old.w = alpha * acc[m][3] + beta * old.w;
    *c = old;
  }
}
