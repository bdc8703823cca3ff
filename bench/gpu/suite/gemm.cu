// gemm.cu: fp32 C = A * B, row-major, 2048 x 2048 x 2048. Ceilings in the same run: cublasSgemm
// (GFLOP/s; "pct_of_cublas") and cudaMemcpy device-to-device (GB/s of the minimum traffic,
// A + B + C once). Variants: naive (one output per thread, operands from global memory),
// tiled 32x32 with B's tile stored transposed in shared memory [32][32] (reading a row of it
// across a warp is a 32-way bank conflict), the same padded to [32][33] (conflict-free), the
// canonical tiled form, and a 64x64 tile with 4x4 outputs per thread. Each is checked on a
// poisoned C against a double-precision CPU product: every element at 333 x 517 x 271 and 4096
// sampled elements at 2048^3.
#include <cublas_v2.h>

#include "common.cuh"

namespace {
using namespace suite;

void checkCublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
}

// C[M][N] = A[M][K] * B[K][N]
__global__ void gemmNaive(const float* __restrict__ A, const float* __restrict__ B,
                          float* __restrict__ C, int M, int N, int K) {
  int c = blockIdx.x * 32 + threadIdx.x, r = blockIdx.y * 8 + threadIdx.y;
  if (r >= M || c >= N) return;
  float acc = 0;
  for (int k = 0; k < K; ++k) acc += A[size_t(r) * K + k] * B[size_t(k) * N + c];
  C[size_t(r) * N + c] = acc;
}

// Tiled 32x32, block (32, 32). TRANSPOSED_B: B's tile is kept as Bt[col][k], so the inner loop
// reads Bt[tx][k] (stride 32 or PAD words across the warp); otherwise Bs[k][tx] (consecutive).
template <bool TRANSPOSED_B, int PAD>
__global__ void __launch_bounds__(1024)
    gemmTiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
              int M, int N, int K) {
  __shared__ float As[32][32 + PAD];
  __shared__ float Bs[32][32 + PAD];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int r = blockIdx.y * 32 + ty, c = blockIdx.x * 32 + tx;
  float acc = 0;
  for (int k0 = 0; k0 < K; k0 += 32) {
    As[ty][tx] = r < M && k0 + tx < K ? A[size_t(r) * K + k0 + tx] : 0.0f;
    float b = k0 + ty < K && c < N ? B[size_t(k0 + ty) * N + c] : 0.0f;
    if (TRANSPOSED_B) Bs[tx][ty] = b;
    else Bs[ty][tx] = b;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 32; ++k) acc += As[ty][k] * (TRANSPOSED_B ? Bs[tx][k] : Bs[k][tx]);
    __syncthreads();
  }
  if (r < M && c < N) C[size_t(r) * N + c] = acc;
}

// 64x64 output tile, block (16, 16), 4x4 outputs per thread at rows ty + 16i and columns
// tx + 16j; K in steps of 16. A's tile is stored transposed (As[k][m]) so both operands are
// read along rows of shared memory; the +4 padding keeps the transposing stores conflict-light.
__global__ void __launch_bounds__(256)
    gemmRegBlock(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                 int M, int N, int K) {
  constexpr int T = 64, BK = 16;
  __shared__ float As[BK][T + 4];
  __shared__ float Bs[BK][T];
  const int tx = threadIdx.x, ty = threadIdx.y, tid = ty * 16 + tx;
  const int r0 = blockIdx.y * T, c0 = blockIdx.x * T;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < K; k0 += BK) {
#pragma unroll
    for (int q = 0; q < 4; ++q) {
      int e = tid + 256 * q;
      int am = e / BK, ak = e % BK;  // A tile 64 x 16
      As[ak][am] = r0 + am < M && k0 + ak < K ? A[size_t(r0 + am) * K + k0 + ak] : 0.0f;
      int bk = e / T, bn = e % T;  // B tile 16 x 64
      Bs[bk][bn] = k0 + bk < K && c0 + bn < N ? B[size_t(k0 + bk) * N + c0 + bn] : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty + 16 * i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx + 16 * j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      int r = r0 + ty + 16 * i, c = c0 + tx + 16 * j;
      if (r < M && c < N) C[size_t(r) * N + c] = acc[i][j];
    }
}

using GemmFn = std::function<void(const float*, const float*, float*, int, int, int)>;

struct GemmCase {
  int M, N, K;
  DeviceBuffer<float> A, B, C;
  std::vector<float> a, b;
  GemmCase(int m, int n, int k, Context& ctx)
      : M(m), N(n), K(k), A(size_t(m) * k), B(size_t(k) * n), C(size_t(m) * n) {
    fillRandom(A.ptr, A.count, ctx.nextSeed(), -1.0, 1.0);
    fillRandom(B.ptr, B.count, ctx.nextSeed(), -1.0, 1.0);
    a = A.download();
    b = B.download();
  }
  // Checks `samples` pseudo-random elements of C (every element if 0) on a poisoned C.
  void verify(const GemmFn& fn, unsigned char poison, size_t samples) {
    C.poison(poison);
    fn(A.ptr, B.ptr, C.ptr, M, N, K);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got = C.download();
    const size_t cells = size_t(M) * N;
    const size_t count = samples ? samples : cells;
    for (size_t s = 0; s < count; ++s) {
      size_t idx = samples ? randomBits(0x5EED, s) % cells : s;
      int r = int(idx / N), c = int(idx % N);
      double want = 0, mag = 0;
      for (int k = 0; k < K; ++k) {
        double p = double(a[size_t(r) * K + k]) * b[size_t(k) * N + c];
        want += p;
        mag += std::fabs(p);
      }
      double g = got[idx];
      if (!(std::fabs(g - want) <= 1e-4 * mag + 1e-6))
        fail("%dx%dx%d: C[%d][%d] = %.9g, want %.9g", M, N, K, r, c, g, want);
    }
  }
};

PartResult benchGemm(Context& ctx) {
  const int S = 2048;
  ctx.reps = std::min(ctx.reps, 30);
  ctx.warmup = 3;
  const double flops = 2.0 * S * S * S, bytes = 3.0 * S * S * sizeof(float);
  std::vector<Run> runs;
  runs.push_back(measureCopy(ctx, size_t(bytes / 2)));  // moves A + B + C's bytes

  GemmCase big(S, S, S, ctx), odd(333, 517, 271, ctx);
  auto variant = [&](const std::string& name, const GemmFn& fn, unsigned char poison) {
    return measure(
        ctx, name, bytes,
        [&] {
          odd.verify(fn, poison, 0);
          big.verify(fn, poison, 4096);
        },
        [&] { fn(big.A.ptr, big.B.ptr, big.C.ptr, S, S, S); }, flops);
  };
  cublasHandle_t handle;
  checkCublas(cublasCreate(&handle), "cublasCreate");
  // Row-major C = A B is column-major C^T = B^T A^T. cuBLAS may compute beta * C even for
  // beta = 0 (0 * NaN = NaN): its C is poisoned with a finite value.
  runs.push_back(variant("cublas_sgemm", [handle](const float* A, const float* B, float* C, int M,
                                                  int N, int K) {
    const float one = 1.0f, zero = 0.0f;
    checkCublas(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N),
                "cublasSgemm");
  }, kFiniteBytes));
  checkCublas(cublasDestroy(handle), "cublasDestroy");
  runs.push_back(variant("naive", [](const float* A, const float* B, float* C, int M, int N, int K) {
    gemmNaive<<<dim3((N + 31) / 32, (M + 7) / 8), dim3(32, 8)>>>(A, B, C, M, N, K);
    CHECK_LAUNCH("gemmNaive");
  }, kNanBytes));
  auto tiled = [](auto kernel) {
    return [kernel](const float* A, const float* B, float* C, int M, int N, int K) {
      kernel<<<dim3((N + 31) / 32, (M + 31) / 32), dim3(32, 32)>>>(A, B, C, M, N, K);
      CHECK_LAUNCH("gemmTiled");
    };
  };
  runs.push_back(variant("tiled32_conflicts", tiled(gemmTiled<true, 0>), kNanBytes));
  runs.push_back(variant("tiled32_padded", tiled(gemmTiled<true, 1>), kNanBytes));
  runs.push_back(variant("tiled32", tiled(gemmTiled<false, 0>), kNanBytes));
  runs.push_back(variant("regblock64_4x4", [](const float* A, const float* B, float* C, int M, int N,
                                              int K) {
    gemmRegBlock<<<dim3((N + 63) / 64, (M + 63) / 64), dim3(16, 16)>>>(A, B, C, M, N, K);
    CHECK_LAUNCH("gemmRegBlock");
  }, kNanBytes));

  double cublas = runs[1].ok ? runs[1].gflops : 0;
  std::string pct;
  for (const Run& r : runs)
    if (r.ok && cublas > 0 && r.name != "memcpy_d2d") {
      char buf[96];
      snprintf(buf, sizeof buf, "%s\"%s\": %.1f", pct.empty() ? "" : ", ", r.name.c_str(),
               100.0 * r.gflops / cublas);
      pct += buf;
    }
  PartResult res;
  res.sizeJson = "[2048, 2048, 2048]";
  res.extraJson = "\"pct_of_cublas\": {" + pct + "}";
  res.note = "(M N K; GFLOP/s = 2MNK / median; GB/s = (A + B + C) bytes / median)";
  res.runs = std::move(runs);
  return res;
}

}  // namespace

SUITE_MAIN("gemm", benchGemm)
