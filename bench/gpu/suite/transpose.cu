// transpose.cu: 8192x8192 fp32 out-of-place transpose. Ceilings in the same run: cudaMemcpy
// device-to-device of the same bytes and cublasSgeam's transpose. Variants: naive, tiled
// (32-way shared-memory conflicts), padded [32][33], swizzled c ^ r, and candidates for
// ours_best (bigger tiles, 16-byte accesses, in-register transposition), all kept in the JSON;
// the fastest correct candidate is repeated as ours_best ("ours_best_is" names it).
// Every variant is checked element by element at 8192x8192, 1000x1000 and 1000x1005 on
// poisoned output before it is timed. GB/s counts bytes read plus written (2 x 256 MiB).
#include <cublas_v2.h>

#include "common.cuh"

namespace {
using namespace suite;

void checkCublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
}

// =============================================================================================
// Transpose. Input is rows x cols row-major; output is cols x rows row-major.

// naive: one element per thread, block 32x8. A warp reads 32 consecutive floats of a row
// (one 128-byte line, coalesced) and writes them down a column of the output: 32 stores
// 4*rows bytes apart, one 32-byte sector each, 8x the write traffic at the L2.
__global__ void transposeNaive(const float* __restrict__ in, float* __restrict__ out, int rows,
                               int cols) {
  int c = blockIdx.x * 32 + threadIdx.x;
  int r = blockIdx.y * 8 + threadIdx.y;
  if (r < rows && c < cols) out[size_t(c) * rows + r] = in[size_t(r) * cols + c];
}

// How a tile is laid out in shared memory.
//   Plain:    tile[r][c] at r*TILE + c. Reading a column hits one bank 32 times (32-way).
//   Padded:   tile[r][c] at r*(TILE+1) + c. A column walks all 32 banks (one spare word a row).
//   Swizzled: tile[r][c] at r*TILE + (c ^ (r mod 32)). Same banks as Padded, no spare words:
//             column c of rows r = 0..31 lands in banks c^0, c^1, ..., c^31, all distinct.
enum class SmemLayout { Plain, Padded, Swizzled };

template <int TILE, SmemLayout L>
__device__ __forceinline__ int tileIndex(int r, int c) {
  if constexpr (L == SmemLayout::Padded) return r * (TILE + 1) + c;
  else if constexpr (L == SmemLayout::Swizzled) return r * TILE + (c ^ (r & 31));
  else return r * TILE + c;
}

// Tiled transpose: block (32, ROWS) stages a TILE x TILE tile in shared memory. Each thread
// moves (TILE/32) * (TILE/ROWS) elements. Global reads and writes are both whole 128-byte
// rows of a warp (coalesced); the transposition happens in shared memory, whose column reads
// conflict or not according to the layout L. STREAM uses evict-first loads and stores
// (__ldcs/__stcs): every byte is touched once, so there is nothing to keep in L2.
template <int TILE, int ROWS, SmemLayout L, bool STREAM>
__global__ void __launch_bounds__(32 * ROWS)
    transposeTiled(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  static_assert(TILE % 32 == 0 && TILE % ROWS == 0, "tile shape");
  constexpr int kWords = TILE * (TILE + (L == SmemLayout::Padded ? 1 : 0));
  __shared__ float tile[kWords];
  const int c0 = blockIdx.x * TILE, r0 = blockIdx.y * TILE;
#pragma unroll
  for (int k = 0; k < TILE; k += 32) {
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
      int r = threadIdx.y + j, c = threadIdx.x + k;
      if (r0 + r < rows && c0 + c < cols) {
        const float* src = &in[size_t(r0 + r) * cols + c0 + c];
        tile[tileIndex<TILE, L>(r, c)] = STREAM ? __ldcs(src) : *src;
      }
    }
  }
  __syncthreads();
#pragma unroll
  for (int k = 0; k < TILE; k += 32) {
#pragma unroll
    for (int j = 0; j < TILE; j += ROWS) {
      int r = threadIdx.y + j, c = threadIdx.x + k;  // output row r0' = c0 + r, column r0 + c
      if (c0 + r < cols && r0 + c < rows) {
        float v = tile[tileIndex<TILE, L>(c, r)];
        float* dst = &out[size_t(c0 + r) * rows + r0 + c];
        if (STREAM) __stcs(dst, v);
        else *dst = v;
      }
    }
  }
}

// Writes output row c0 + oc, columns r0 + orow .. +3, from tile column oc (row pitch W):
// one float4 store where it fits the matrix and `vec` allows, scalar stores otherwise.
template <int W, bool STREAM>
__device__ __forceinline__ void storeTileColumn4(float* __restrict__ out, const float* tile, int rows, int c0,
                                                 int r0, int oc, int orow, bool vec) {
  float* dst = &out[size_t(c0 + oc) * rows + r0 + orow];
  const float* src = &tile[orow * W + oc];
  if (vec && r0 + orow + 3 < rows) {
    float4 v = make_float4(src[0], src[W], src[2 * W], src[3 * W]);
    if (STREAM) __stcs(reinterpret_cast<float4*>(dst), v);
    else *reinterpret_cast<float4*>(dst) = v;
  } else {
    for (int m = 0; m < 4; ++m)
      if (r0 + orow + m < rows) dst[m] = src[m * W];
  }
}

// Vectorized tiled transpose: T x T tile, block (T/4, ROWS). Each thread reads 16-byte float4
// pieces of input rows and writes float4 pieces of output rows gathered from a tile column, a
// quarter of the memory instructions of the scalar kernels; (T/ROWS) float4 loads per thread
// are in flight at once. The tile is padded to T+1 words a row: the column gathers hit each
// bank at most twice. Scalar accesses where a float4 would cross the matrix edge or be
// misaligned (rows or cols not a multiple of 4). COLORDER: consecutive blocks take tiles down
// a column of the input (grid x over row tiles), so they write along output rows instead of
// reading along input rows (a different DRAM page pattern).
template <int T, int ROWS, bool STREAM, bool COLORDER = false>
__global__ void __launch_bounds__(T / 4 * ROWS)
    transposeVec4(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  constexpr int W = T + 1;
  __shared__ float tile[T * W];
  const int c0 = (COLORDER ? blockIdx.y : blockIdx.x) * T;
  const int r0 = (COLORDER ? blockIdx.x : blockIdx.y) * T;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const bool vec = rows % 4 == 0 && cols % 4 == 0;  // every float4 below is 16-byte aligned
#pragma unroll
  for (int j = 0; j < T; j += ROWS) {
    const int r = ty + j, c = 4 * tx;  // tile row r, columns c..c+3
    if (r0 + r >= rows) continue;
    const float* src = &in[size_t(r0 + r) * cols + c0 + c];
    float* dst = &tile[r * W + c];
    if (vec && c0 + c + 3 < cols) {
      float4 v = STREAM ? __ldcs(reinterpret_cast<const float4*>(src))
                        : *reinterpret_cast<const float4*>(src);
      dst[0] = v.x, dst[1] = v.y, dst[2] = v.z, dst[3] = v.w;
    } else {
      for (int m = 0; m < 4; ++m)
        if (c0 + c + m < cols) dst[m] = src[m];
    }
  }
  __syncthreads();
#pragma unroll
  for (int j = 0; j < T; j += ROWS) {
    const int oc = ty + j, orow = 4 * tx;  // output row c0 + oc, columns r0 + orow .. +3
    if (c0 + oc >= cols) continue;
    storeTileColumn4<W, STREAM>(out, tile, rows, c0, r0, oc, orow, vec);
  }
}

// In-register transpose, no shared memory: block (32, 8), each thread loads an R x R block
// (R rows of R/4 float4s), transposes it in registers and stores R output rows of R/4 float4s.
// A warp reads R rows of 128*R contiguous bytes; each store instruction writes 16 bytes to 32
// output rows, the R/4 instructions of a thread (and, for R = 4, the thread below) completing
// each 32-byte sector. No __syncthreads, R*R/4 bytes in flight per thread.
template <int R, bool STREAM>
__global__ void __launch_bounds__(256)
    transposeReg(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  static_assert(R % 4 == 0, "R float4s");
  const int c = (blockIdx.x * 32 + threadIdx.x) * R;
  const int r = (blockIdx.y * 8 + threadIdx.y) * R;
  if (r >= rows || c >= cols) return;
  const bool full = rows % 4 == 0 && cols % 4 == 0 && r + R <= rows && c + R <= cols;
  if (full) {
    float v[R][R];
#pragma unroll
    for (int i = 0; i < R; ++i)
#pragma unroll
      for (int q = 0; q < R / 4; ++q) {
        const float4* src = reinterpret_cast<const float4*>(&in[size_t(r + i) * cols + c + 4 * q]);
        float4 t = STREAM ? __ldcs(src) : *src;
        v[i][4 * q] = t.x, v[i][4 * q + 1] = t.y, v[i][4 * q + 2] = t.z, v[i][4 * q + 3] = t.w;
      }
#pragma unroll
    for (int j = 0; j < R; ++j)
#pragma unroll
      for (int q = 0; q < R / 4; ++q) {
        float4 t = make_float4(v[4 * q][j], v[4 * q + 1][j], v[4 * q + 2][j], v[4 * q + 3][j]);
        float4* dst = reinterpret_cast<float4*>(&out[size_t(c + j) * rows + r + 4 * q]);
        if (STREAM) __stcs(dst, t);
        else *dst = t;
      }
  } else {
    for (int i = 0; i < R && r + i < rows; ++i)
      for (int j = 0; j < R && c + j < cols; ++j)
        out[size_t(c + j) * rows + r + i] = in[size_t(r + i) * cols + c + j];
  }
}

using TransposeFn = std::function<void(const float*, float*, int, int)>;

void launchNaive(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  transposeNaive<<<grid, dim3(32, 8)>>>(in, out, rows, cols);
  CHECK_LAUNCH("transposeNaive");
}

template <int TILE, int ROWS, SmemLayout L, bool STREAM>
void launchTiled(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transposeTiled<TILE, ROWS, L, STREAM><<<grid, dim3(32, ROWS)>>>(in, out, rows, cols);
  CHECK_LAUNCH("transposeTiled");
}

template <int T, int ROWS, bool STREAM, bool COLORDER = false>
void launchVec4(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + T - 1) / T, (rows + T - 1) / T);
  if (COLORDER) std::swap(grid.x, grid.y);
  transposeVec4<T, ROWS, STREAM, COLORDER><<<grid, dim3(T / 4, ROWS)>>>(in, out, rows, cols);
  CHECK_LAUNCH("transposeVec4");
}

// Pipelined persistent form of transposeVec4 (64 x 64 tiles, block (16, ROWS)): a grid of as
// many blocks as fit walks the tiles with a grid stride, and each block issues the loads of its
// next tile into registers before storing the current one from shared memory, so loads stay in
// flight through the store phase.
template <int ROWS, bool STREAM>
__global__ void __launch_bounds__(16 * ROWS)
    transposePipe(const float* __restrict__ in, float* __restrict__ out, int rows, int cols,
                  int tilesX, int numTiles) {
  constexpr int T = 64, W = T + 1, K = T / ROWS;
  __shared__ float tile[T * W];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const bool vec = rows % 4 == 0 && cols % 4 == 0;
  float4 buf[K];
  auto load = [&](int t) {
    const int c0 = (t % tilesX) * T, r0 = (t / tilesX) * T;
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const int gr = r0 + ty + j * ROWS, gc = c0 + 4 * tx;
      if (gr >= rows) continue;
      const float* src = &in[size_t(gr) * cols + gc];
      if (vec && gc + 3 < cols) {
        buf[j] = STREAM ? __ldcs(reinterpret_cast<const float4*>(src))
                        : *reinterpret_cast<const float4*>(src);
      } else {
        buf[j].x = gc < cols ? src[0] : 0.0f;
        buf[j].y = gc + 1 < cols ? src[1] : 0.0f;
        buf[j].z = gc + 2 < cols ? src[2] : 0.0f;
        buf[j].w = gc + 3 < cols ? src[3] : 0.0f;
      }
    }
  };
  int t = blockIdx.x;
  if (t >= numTiles) return;
  load(t);
  for (; t < numTiles; t += gridDim.x) {
    const int c0 = (t % tilesX) * T, r0 = (t / tilesX) * T;
#pragma unroll
    for (int j = 0; j < K; ++j) {
      float* dst = &tile[(ty + j * ROWS) * W + 4 * tx];
      dst[0] = buf[j].x, dst[1] = buf[j].y, dst[2] = buf[j].z, dst[3] = buf[j].w;
    }
    __syncthreads();
    if (t + int(gridDim.x) < numTiles) load(t + gridDim.x);
#pragma unroll
    for (int j = 0; j < K; ++j) {
      const int oc = ty + j * ROWS, orow = 4 * tx;
      if (c0 + oc >= cols) continue;
      storeTileColumn4<W, STREAM>(out, tile, rows, c0, r0, oc, orow, vec);
    }
    __syncthreads();
  }
}

template <int ROWS, bool STREAM>
void launchPipe(const float* in, float* out, int rows, int cols) {
  static int blocks = [] {
    int device = 0, sms = 0, perSm = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, transposePipe<ROWS, STREAM>,
                                                        16 * ROWS, 0));
    return sms * std::max(perSm, 1);
  }();
  const int tilesX = (cols + 63) / 64, numTiles = tilesX * ((rows + 63) / 64);
  transposePipe<ROWS, STREAM><<<std::min(blocks, numTiles), dim3(16, ROWS)>>>(in, out, rows, cols,
                                                                             tilesX, numTiles);
  CHECK_LAUNCH("transposePipe");
}

template <int R, bool STREAM>
void launchReg(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + 32 * R - 1) / (32 * R), (rows + 8 * R - 1) / (8 * R));
  transposeReg<R, STREAM><<<grid, dim3(32, 8)>>>(in, out, rows, cols);
  CHECK_LAUNCH("transposeReg");
}

// cuBLAS works column-major: our row-major rows x cols input is a column-major cols x rows
// matrix A (lda = cols); C = A^T is column-major rows x cols (ldc = rows), which is our
// row-major cols x rows output. beta = 0 with B = C (the documented in-place form).
TransposeFn cublasTranspose(cublasHandle_t handle) {
  return [handle](const float* in, float* out, int rows, int cols) {
    const float one = 1.0f, zero = 0.0f;
    checkCublas(cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out,
                      rows, out, rows), "cublasSgeam");
  };
}

// Checks every element: out[c][r] == in[r][c]. Walks 64x64 blocks to stay in cache.
void checkTranspose(const std::vector<float>& in, const std::vector<float>& out, int rows,
                    int cols) {
  for (int rb = 0; rb < rows; rb += 64)
    for (int cb = 0; cb < cols; cb += 64)
      for (int r = rb; r < std::min(rows, rb + 64); ++r)
        for (int c = cb; c < std::min(cols, cb + 64); ++c) {
          float want = in[size_t(r) * cols + c], got = out[size_t(c) * rows + r];
          if (!(got == want)) {
            char msg[160];
            snprintf(msg, sizeof msg, "%dx%d: out[%d][%d] = %g, want %g", rows, cols, c, r,
                     double(got), double(want));
            throw std::runtime_error(msg);
          }
        }
}

// One verification shape: random input on the device (read back for the check), an output.
struct TransposeCase {
  int rows, cols;
  DeviceBuffer<float> in, out;
  std::vector<float> host;
  TransposeCase(int r, int c, uint64_t seed) : rows(r), cols(c), in(size_t(r) * c), out(size_t(r) * c) {
    fillRandom(in.ptr, in.count, seed, -1.0, 1.0);
    host = in.download();
  }
};

// Runs fn once on output poisoned with `poison` bytes and checks every element.
void verifyTranspose(const TransposeFn& fn, TransposeCase& tc, unsigned char poison) {
  CHECK(cudaMemset(tc.out.ptr, poison, tc.out.bytes()));
  fn(tc.in.ptr, tc.out.ptr, tc.rows, tc.cols);
  CHECK(cudaDeviceSynchronize());
  std::vector<float> result(tc.host.size());
  CHECK(cudaMemcpy(result.data(), tc.out.ptr, tc.out.bytes(), cudaMemcpyDeviceToHost));
  checkTranspose(tc.host, result, tc.rows, tc.cols);
}

PartResult benchTranspose(Context& ctx) {
  const int N = 8192, oddN = 1000;
  const size_t n = size_t(N) * N;
  const double bytesMoved = 2.0 * n * sizeof(float);
  std::vector<Run> runs;
  runs.push_back(measureCopy(ctx, n * sizeof(float)));  // the ceiling: the same bytes copied

  TransposeCase big(N, N, ctx.nextSeed());           // verified and timed
  TransposeCase odd(oddN, oddN, ctx.nextSeed());      // not a multiple of 32
  TransposeCase oblong(oddN, oddN + 5, ctx.nextSeed());  // nor square
  auto variant = [&](const std::string& name, const TransposeFn& fn, unsigned char poison) {
    return measure(
        ctx, name, bytesMoved,
        [&] {
          verifyTranspose(fn, big, poison);
          verifyTranspose(fn, odd, poison);
          verifyTranspose(fn, oblong, poison);
        },
        [&] { fn(big.in.ptr, big.out.ptr, N, N); });
  };
  cublasHandle_t handle;
  checkCublas(cublasCreate(&handle), "cublasCreate");
  // cuBLAS may compute beta * C even for beta = 0 (0 * NaN = NaN): poison with a finite value.
  runs.push_back(variant("cublas_geam", cublasTranspose(handle), kFiniteBytes));
  checkCublas(cublasDestroy(handle), "cublasDestroy");
  runs.push_back(variant("naive", launchNaive, kNanBytes));
  runs.push_back(variant("tiled", launchTiled<32, 8, SmemLayout::Plain, false>, kNanBytes));
  runs.push_back(variant("padded", launchTiled<32, 8, SmemLayout::Padded, false>, kNanBytes));
  runs.push_back(variant("swizzled", launchTiled<32, 8, SmemLayout::Swizzled, false>, kNanBytes));

  // Candidates for ours_best: more bytes in flight per thread (bigger tiles, fewer rows per
  // block, 16-byte accesses), conflict-free layouts, streaming (evict-first) loads and stores,
  // and the in-register transposition without shared memory.
  struct Candidate {
    const char* name;
    TransposeFn fn;
  };
  const Candidate candidates[] = {
      {"cand_pad64_r8", launchTiled<64, 8, SmemLayout::Padded, false>},
      {"cand_pad64_r16", launchTiled<64, 16, SmemLayout::Padded, false>},
      {"cand_vec64_r4", launchVec4<64, 4, false>},
      {"cand_vec64_r8", launchVec4<64, 8, false>},
      {"cand_vec64_r16", launchVec4<64, 16, false>},
      {"cand_vec64_r32", launchVec4<64, 32, false>},
      {"cand_vec64_r16_stream", launchVec4<64, 16, true>},
      {"cand_vec64_r4_stream", launchVec4<64, 4, true>},
      {"cand_vec32_r8", launchVec4<32, 8, false>},
      {"cand_vec32_r16", launchVec4<32, 16, false>},
      {"cand_vec32_r32", launchVec4<32, 32, false>},
      {"cand_vec64_r16_colorder", launchVec4<64, 16, false, true>},
      {"cand_vec64_r8_colorder", launchVec4<64, 8, false, true>},
      {"cand_pipe64_r8", launchPipe<8, false>},
      {"cand_pipe64_r16", launchPipe<16, false>},
      {"cand_pipe64_r32", launchPipe<32, false>},
      {"cand_pipe64_r16_stream", launchPipe<16, true>},
      {"cand_reg4", launchReg<4, false>},
      {"cand_reg8", launchReg<8, false>},
      {"cand_reg8_stream", launchReg<8, true>},
  };
  std::vector<Run> cands;
  for (const Candidate& c : candidates) cands.push_back(variant(c.name, c.fn, kNanBytes));
  std::string bestName;
  runs.push_back(pickBest(cands, &bestName));
  runs.insert(runs.end(), cands.begin(), cands.end());

  PartResult res;
  res.sizeJson = "[8192, 8192]";
  res.extraJson = "\"ours_best_is\": \"" + bestName + "\"";
  res.note = "(GB/s = 2 x 256 MiB / median; ours_best is " + bestName + ")";
  res.runs = std::move(runs);
  return res;
}

}  // namespace

SUITE_MAIN("transpose", benchTranspose)
