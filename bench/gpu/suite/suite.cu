// suite.cu: GPU benchmark suite for the seed kernels (transpose, reductions) with ceilings
// measured in the same run (cudaMemcpy D2D, cuBLAS geam, CUB reduce).
//
// Usage: suite OUTDIR   -> writes OUTDIR/transpose.json and OUTDIR/reduce.json, prints a table.
// Exit status is non-zero if any CUDA/cuBLAS call failed or any variant gave a wrong result;
// the other variants are still measured (their runs carry "ok": false).
//
// Every variant is first run once on poisoned output and checked element by element (transpose)
// or against a double-precision CPU sum (reductions), at the benchmark size and at a size that is
// not a multiple of 32. Then: warm-up, then CUDA events around each of kReps launches.
#include <cublas_v2.h>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

constexpr int kWarmup = 10;
constexpr int kReps = 100;

// ---------------------------------------------------------------------------------------------
// Errors: every call is checked; a failure throws, the variant is recorded as not ok.

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
void check(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(int(s)));
}
#define CHECK(call) check((call), #call)
#define CHECK_LAUNCH(what) check(cudaGetLastError(), what)

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t count = 0;
  explicit DeviceBuffer(size_t n) : count(n) { CHECK(cudaMalloc(&ptr, n * sizeof(T))); }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  size_t bytes() const { return count * sizeof(T); }
};

// Fixed-seed generator (splitmix64): the same inputs every run.
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed) {}
  uint64_t next() {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  float uniform(float lo, float hi) { return lo + (hi - lo) * float(next() >> 40) * 0x1p-24f; }
};

std::vector<float> randomFloats(size_t n, uint64_t seed, float lo, float hi) {
  std::vector<float> v(n);
  Random rng(seed);
  for (auto& x : v) x = rng.uniform(lo, hi);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Timing and results.

struct Run {
  std::string name;
  double medianMs = 0, minMs = 0, maxMs = 0, gbps = 0, pctOfCopy = 0;
  bool ok = false;
  std::string error;
};

struct Stats {
  double median, min, max;
};

// Warm up, then time each of kReps launches with its own pair of events.
Stats timeLaunches(const std::function<void()>& launch) {
  for (int i = 0; i < kWarmup; ++i) launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<cudaEvent_t> start(kReps), stop(kReps);
  for (int i = 0; i < kReps; ++i) {
    CHECK(cudaEventCreate(&start[i]));
    CHECK(cudaEventCreate(&stop[i]));
  }
  for (int i = 0; i < kReps; ++i) {
    CHECK(cudaEventRecord(start[i]));
    launch();
    CHECK(cudaEventRecord(stop[i]));
  }
  CHECK(cudaEventSynchronize(stop[kReps - 1]));
  std::vector<double> ms(kReps);
  for (int i = 0; i < kReps; ++i) {
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start[i], stop[i]));
    ms[i] = t;
    cudaEventDestroy(start[i]);
    cudaEventDestroy(stop[i]);
  }
  std::sort(ms.begin(), ms.end());
  double median = kReps % 2 ? ms[kReps / 2] : 0.5 * (ms[kReps / 2 - 1] + ms[kReps / 2]);
  return {median, ms.front(), ms.back()};
}

// Runs one variant: verify (may throw), then time. A failure is recorded, not propagated.
Run measure(const std::string& name, double bytesMoved, const std::function<void()>& verify,
            const std::function<void()>& launch) {
  Run run;
  run.name = name;
  try {
    verify();
    Stats s = timeLaunches(launch);
    run.medianMs = s.median;
    run.minMs = s.min;
    run.maxMs = s.max;
    run.gbps = bytesMoved / (s.median * 1e-3) / 1e9;
    run.ok = true;
  } catch (const std::exception& e) {
    run.error = e.what();
    fprintf(stderr, "FAIL %s: %s\n", name.c_str(), e.what());
    cudaGetLastError();  // clear a non-sticky error so the next variant can run
  }
  return run;
}

std::string jsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') { out += "\\n"; continue; }
    out += c;
  }
  return out;
}

void writeJson(const std::string& path, const std::string& device, const std::string& sizeJson,
               const std::string& extra, const std::vector<Run>& runs) {
  FILE* f = fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write " + path);
  fprintf(f, "{\"device\": \"%s\", \"size\": %s, \"dtype\": \"f32\",%s \"runs\": [\n",
          jsonEscape(device).c_str(), sizeJson.c_str(), extra.c_str());
  for (size_t i = 0; i < runs.size(); ++i) {
    const Run& r = runs[i];
    fprintf(f,
            "  {\"name\": \"%s\", \"median_ms\": %.5f, \"min_ms\": %.5f, \"max_ms\": %.5f, "
            "\"gbps\": %.1f, \"pct_of_copy\": %.1f, \"ok\": %s",
            r.name.c_str(), r.medianMs, r.minMs, r.maxMs, r.gbps, r.pctOfCopy,
            r.ok ? "true" : "false");
    if (!r.ok) fprintf(f, ", \"error\": \"%s\"", jsonEscape(r.error).c_str());
    fprintf(f, "}%s\n", i + 1 < runs.size() ? "," : "");
  }
  fprintf(f, "]}\n");
  fclose(f);
}

void printTable(const char* title, const std::vector<Run>& runs) {
  printf("\n%s\n%-22s %10s %10s %10s %9s %7s  %s\n", title, "variant", "median_ms", "min_ms",
         "max_ms", "GB/s", "%copy", "ok");
  for (const Run& r : runs)
    printf("%-22s %10.4f %10.4f %10.4f %9.1f %6.1f%%  %s\n", r.name.c_str(), r.medianMs, r.minMs,
           r.maxMs, r.gbps, r.pctOfCopy, r.ok ? "yes" : ("NO: " + r.error).c_str());
}

void fillPctOfCopy(std::vector<Run>& runs, double copyGbps) {
  for (Run& r : runs) r.pctOfCopy = (r.ok && copyGbps > 0) ? 100.0 * r.gbps / copyGbps : 0;
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

// Vectorized tiled transpose: 64x64 tile, block (16, ROWS). Each thread reads 16-byte float4
// pieces of input rows (a warp reads two 256-byte row segments per instruction) and writes
// float4 pieces of output rows gathered from a tile column, so both sides issue a quarter of the
// memory instructions of the scalar kernels. The tile is padded to 65 words a row: the column
// gathers hit each bank at most twice. Falls back to scalar accesses where a float4 would cross
// the matrix edge or be misaligned (rows or cols not a multiple of 4).
template <int ROWS, bool STREAM>
__global__ void __launch_bounds__(16 * ROWS)
    transposeVec4(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  constexpr int T = 64, W = T + 1;
  __shared__ float tile[T * W];
  const int c0 = blockIdx.x * T, r0 = blockIdx.y * T;
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
}

using TransposeFn = std::function<void(const float*, float*, int, int)>;

void launchNaive(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + 31) / 32, (rows + 7) / 8);
  transposeNaive<<<grid, dim3(32, 8)>>>(in, out, rows, cols);
  CHECK_LAUNCH("transposeNaive");
}

template <int ROWS, bool STREAM>
void launchVec4(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + 63) / 64, (rows + 63) / 64);
  transposeVec4<ROWS, STREAM><<<grid, dim3(16, ROWS)>>>(in, out, rows, cols);
  CHECK_LAUNCH("transposeVec4");
}

template <int TILE, int ROWS, SmemLayout L, bool STREAM>
void launchTiled(const float* in, float* out, int rows, int cols) {
  dim3 grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
  transposeTiled<TILE, ROWS, L, STREAM><<<grid, dim3(32, ROWS)>>>(in, out, rows, cols);
  CHECK_LAUNCH("transposeTiled");
}

// cuBLAS works column-major: our row-major rows x cols input is a column-major cols x rows
// matrix A (lda = cols); C = A^T is column-major rows x cols (ldc = rows), which is our
// row-major cols x rows output. beta = 0 with B = C (the documented in-place form).
TransposeFn cublasTranspose(cublasHandle_t handle) {
  return [handle](const float* in, float* out, int rows, int cols) {
    const float one = 1.0f, zero = 0.0f;
    CHECK(cublasSgeam(handle, CUBLAS_OP_T, CUBLAS_OP_N, rows, cols, &one, in, cols, &zero, out,
                      rows, out, rows));
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

// One verification shape: random input on the host and the device, and an output buffer.
struct TransposeCase {
  int rows, cols;
  std::vector<float> host;
  DeviceBuffer<float> in, out;
  TransposeCase(int r, int c, uint64_t seed)
      : rows(r), cols(c), host(randomFloats(size_t(r) * c, seed, -1.0f, 1.0f)),
        in(size_t(r) * c), out(size_t(r) * c) {
    CHECK(cudaMemcpy(in.ptr, host.data(), in.bytes(), cudaMemcpyHostToDevice));
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

constexpr unsigned char kNanBytes = 0xFF;  // 0xFFFFFFFF is a NaN
// cuBLAS may compute beta * C even for beta = 0, and 0 * NaN = NaN; its output is poisoned
// with a finite value far outside the inputs' [-1, 1) instead (0xC7C7C7C7 = -102287.6).
constexpr unsigned char kFiniteBytes = 0xC7;

std::vector<Run> benchTranspose(cublasHandle_t handle, int N, int oddN, std::string& bestName) {
  const size_t n = size_t(N) * N;
  const double bytesMoved = 2.0 * n * sizeof(float);
  TransposeCase big(N, N, 7);                   // verified and timed
  TransposeCase odd(oddN, oddN, 8);             // not a multiple of 32
  TransposeCase oblong(oddN, oddN + 5, 9);      // nor square
  float* in = big.in.ptr;
  float* out = big.out.ptr;

  std::vector<Run> runs;
  // Ceiling: a plain device-to-device copy of the same bytes.
  runs.push_back(measure(
      "memcpy_d2d", bytesMoved, [] {},
      [&] { CHECK(cudaMemcpyAsync(out, in, n * sizeof(float), cudaMemcpyDeviceToDevice)); }));

  auto variant = [&](const std::string& name, const TransposeFn& fn, unsigned char poison) {
    return measure(
        name, bytesMoved,
        [&] {
          verifyTranspose(fn, big, poison);
          verifyTranspose(fn, odd, poison);
          verifyTranspose(fn, oblong, poison);
        },
        [&] { fn(in, out, N, N); });
  };
  runs.push_back(variant("cublas_geam", cublasTranspose(handle), kFiniteBytes));
  runs.push_back(variant("naive", launchNaive, kNanBytes));
  runs.push_back(variant("tiled", launchTiled<32, 8, SmemLayout::Plain, false>, kNanBytes));
  runs.push_back(variant("padded", launchTiled<32, 8, SmemLayout::Padded, false>, kNanBytes));
  runs.push_back(variant("swizzled", launchTiled<32, 8, SmemLayout::Swizzled, false>, kNanBytes));

  // Candidates for ours_best: more elements in flight per thread (bigger tiles or fewer rows
  // per block), conflict-free layouts, optionally streaming loads/stores. The fastest correct
  // one is reported again as ours_best (its candidate name is in "ours_best_is").
  struct Candidate {
    const char* name;
    TransposeFn fn;
  };
  const Candidate candidates[] = {
      {"cand_pad32_r4", launchTiled<32, 4, SmemLayout::Padded, false>},
      {"cand_pad64_r8", launchTiled<64, 8, SmemLayout::Padded, false>},
      {"cand_pad64_r16", launchTiled<64, 16, SmemLayout::Padded, false>},
      {"cand_swz64_r8", launchTiled<64, 8, SmemLayout::Swizzled, false>},
      {"cand_pad64_r8_stream", launchTiled<64, 8, SmemLayout::Padded, true>},
      {"cand_pad32_r4_stream", launchTiled<32, 4, SmemLayout::Padded, true>},
      {"cand_vec64_r16", launchVec4<16, false>},
      {"cand_vec64_r8", launchVec4<8, false>},
      {"cand_vec64_r8_stream", launchVec4<8, true>},
  };
  std::vector<Run> cands;
  for (const Candidate& c : candidates) cands.push_back(variant(c.name, c.fn, kNanBytes));
  const Run* best = nullptr;
  for (const Run& r : cands)
    if (r.ok && (!best || r.medianMs < best->medianMs)) best = &r;
  Run oursBest;
  if (best) {
    oursBest = *best;
    oursBest.name = "ours_best";
    bestName = best->name;
  } else {
    oursBest.name = "ours_best";
    oursBest.error = "no candidate passed verification";
  }
  runs.push_back(oursBest);
  runs.insert(runs.end(), cands.begin(), cands.end());
  return runs;
}

// =============================================================================================
// Reductions: sum of n floats. Bandwidth counts bytes read (4n) per second.

constexpr int kReduceBlock = 256;

// interleaved: each thread loads one element into shared memory; the tree pairs s[t] with
// s[t + stride] for t a multiple of 2*stride. `t % (2*stride)` leaves most lanes of every warp
// idle (divergent) and the strided s[t] accesses conflict in banks. One partial per block.
__global__ void reduceInterleaved(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float s[kReduceBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    if (t % (2 * stride) == 0) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// sequential addressing: the same tree with the active threads packed at the front
// (t < stride, adding s[t + stride]): whole warps retire, consecutive lanes read consecutive
// words (no bank conflicts). Still one element per thread and one partial per block.
__global__ void reduceSequential(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float s[kReduceBlock];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

// Both tree kernels run as passes: n -> n/256 partials -> ... -> 1 (into `result`).
void reduceByPasses(void (*kernel)(const float*, float*, int), const float* in, int n,
                    float* result, float* bufA, float* bufB) {
  const float* src = in;
  float* dst = bufA;
  int len = n;
  do {
    int blocks = (len + kReduceBlock - 1) / kReduceBlock;
    float* target = blocks == 1 ? result : dst;
    kernel<<<blocks, kReduceBlock>>>(src, target, len);
    CHECK_LAUNCH("reduce pass");
    src = target;
    dst = dst == bufA ? bufB : bufA;
    len = blocks;
  } while (len > 1);
}

__device__ __forceinline__ float warpSum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  return v;
}

// Sum of one value per thread of the block, returned to thread 0. Shuffles within warps, then
// one shared word per warp, then shuffles within the first warp.
__device__ float blockSum(float v) {
  __shared__ float warpSums[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warpSum(v);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? warpSums[lane] : 0.0f;
  if (warp == 0) v = warpSum(v);
  __syncthreads();  // warpSums may be reused by a later call
  return v;
}

// shuffle: a grid just big enough to fill the GPU walks the input with a grid stride, four
// independent 16-byte loads per thread per step (64 bytes in flight per thread, every warp
// access one full 512-byte run), then warp shuffles and one partial per block. The last block
// to finish (atomic ticket) sums the partials, so the whole sum is one launch.
__global__ void reduceShuffle(const float* __restrict__ in, size_t n, float* __restrict__ partials,
                              unsigned int* __restrict__ ticket, float* __restrict__ result) {
  const size_t stride = size_t(gridDim.x) * blockDim.x;
  const size_t n4 = n / 4;
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float a = 0, b = 0, c = 0, d = 0;
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  for (; i + 3 * stride < n4; i += 4 * stride) {
    float4 v0 = in4[i], v1 = in4[i + stride], v2 = in4[i + 2 * stride], v3 = in4[i + 3 * stride];
    a += (v0.x + v0.y) + (v0.z + v0.w);
    b += (v1.x + v1.y) + (v1.z + v1.w);
    c += (v2.x + v2.y) + (v2.z + v2.w);
    d += (v3.x + v3.y) + (v3.z + v3.w);
  }
  for (; i < n4; i += stride) {
    float4 v = in4[i];
    a += (v.x + v.y) + (v.z + v.w);
  }
  for (size_t k = 4 * n4 + size_t(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += stride)
    b += in[k];  // the n % 4 tail
  float sum = blockSum((a + b) + (c + d));

  __shared__ bool isLast;
  if (threadIdx.x == 0) {
    partials[blockIdx.x] = sum;
    __threadfence();  // the partial is visible before the ticket is taken
    isLast = atomicAdd(ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!isLast) return;
  __threadfence();
  const volatile float* p = partials;
  float total = 0;
  for (unsigned int k = threadIdx.x; k < gridDim.x; k += blockDim.x) total += p[k];
  total = blockSum(total);
  if (threadIdx.x == 0) {
    *result = total;
    *ticket = 0;  // ready for the next launch
  }
}

struct ShuffleReducer {
  int blocks = 0;
  DeviceBuffer<float> partials;
  DeviceBuffer<unsigned int> ticket;
  static int gridSize() {
    int device = 0, sms = 0, perSm = 0;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, reduceShuffle, kReduceBlock, 0));
    return sms * std::max(perSm, 1);
  }
  ShuffleReducer() : blocks(gridSize()), partials(size_t(blocks)), ticket(1) {
    CHECK(cudaMemset(ticket.ptr, 0, sizeof(unsigned int)));
  }
  void operator()(const float* in, size_t n, float* result) {
    reduceShuffle<<<blocks, kReduceBlock>>>(in, n, partials.ptr, ticket.ptr, result);
    CHECK_LAUNCH("reduceShuffle");
  }
};

// CUB's device-wide sum, with its temporary storage allocated once per size.
struct CubReducer {
  DeviceBuffer<unsigned char> temp;
  static size_t tempBytes(size_t n) {
    size_t bytes = 0;
    CHECK(cub::DeviceReduce::Sum(nullptr, bytes, static_cast<const float*>(nullptr),
                                 static_cast<float*>(nullptr), int(n)));
    return std::max<size_t>(bytes, 1);
  }
  // Sized for the largest of the sizes it will see (verification runs a second, odd size).
  CubReducer(size_t n, size_t oddN) : temp(std::max(tempBytes(n), tempBytes(oddN))) {}
  void operator()(const float* in, size_t n, float* result) {
    size_t bytes = temp.bytes();
    CHECK(cub::DeviceReduce::Sum(temp.ptr, bytes, in, result, int(n)));
  }
};

using ReduceFn = std::function<void(const float*, size_t, float*)>;

// Runs fn once into a NaN-poisoned result and compares with a double-precision CPU sum.
void verifySum(const ReduceFn& fn, const float* devIn, size_t n, double want, float* devResult) {
  CHECK(cudaMemset(devResult, kNanBytes, sizeof(float)));
  fn(devIn, n, devResult);
  CHECK(cudaDeviceSynchronize());
  float got = 0;
  CHECK(cudaMemcpy(&got, devResult, sizeof(float), cudaMemcpyDeviceToHost));
  double rel = std::fabs(double(got) - want) / std::max(std::fabs(want), 1e-30);
  if (!(rel <= 1e-3)) {
    char msg[160];
    snprintf(msg, sizeof msg, "n=%zu: sum %.9g, want %.9g (relative error %.2g)", n, double(got),
             want, rel);
    throw std::runtime_error(msg);
  }
}

double cpuSum(const std::vector<float>& v) {
  double s = 0;
  for (float x : v) s += x;
  return s;
}

std::vector<Run> benchReduce(size_t n, size_t oddN) {
  const double bytesRead = double(n) * sizeof(float);
  DeviceBuffer<float> in(n);
  DeviceBuffer<float> result(1);
  DeviceBuffer<float> bufA(n / kReduceBlock + 1), bufB(n / kReduceBlock + 1);

  std::vector<Run> runs;
  // Ceiling: copy half the input (bytes moved = read + written = the input's size), done before
  // the input is filled so no extra buffer of the full size is needed.
  {
    size_t half = n / 2;
    DeviceBuffer<float> dst(half);
    Run copy = measure("memcpy_d2d", 2.0 * half * sizeof(float), [] {}, [&] {
      CHECK(cudaMemcpyAsync(dst.ptr, in.ptr, half * sizeof(float), cudaMemcpyDeviceToDevice));
    });
    runs.push_back(copy);
  }

  // Inputs in [0, 1): the sum grows with n, so a lost partial shows as a relative error.
  std::vector<float> host = randomFloats(n, 11, 0.0f, 1.0f);
  const double want = cpuSum(host);
  CHECK(cudaMemcpy(in.ptr, host.data(), in.bytes(), cudaMemcpyHostToDevice));
  std::vector<float> oddHost = randomFloats(oddN, 13, 0.0f, 1.0f);
  const double oddWant = cpuSum(oddHost);
  host.clear();
  host.shrink_to_fit();
  DeviceBuffer<float> oddIn(oddN);
  CHECK(cudaMemcpy(oddIn.ptr, oddHost.data(), oddIn.bytes(), cudaMemcpyHostToDevice));

  auto variant = [&](const std::string& name, const ReduceFn& fn) {
    return measure(
        name, bytesRead,
        [&] {
          verifySum(fn, in.ptr, n, want, result.ptr);
          verifySum(fn, oddIn.ptr, oddN, oddWant, result.ptr);
        },
        [&] { fn(in.ptr, n, result.ptr); });
  };

  try {
    CubReducer cubReducer(n, oddN);
    runs.push_back(variant("cub_reduce", std::ref(cubReducer)));
  } catch (const std::exception& e) {
    Run r;
    r.name = "cub_reduce";
    r.error = e.what();
    runs.push_back(r);
  }
  runs.push_back(variant("interleaved", [&](const float* p, size_t len, float* out) {
    reduceByPasses(reduceInterleaved, p, int(len), out, bufA.ptr, bufB.ptr);
  }));
  runs.push_back(variant("sequential", [&](const float* p, size_t len, float* out) {
    reduceByPasses(reduceSequential, p, int(len), out, bufA.ptr, bufB.ptr);
  }));
  try {
    ShuffleReducer shuffle;
    runs.push_back(variant("shuffle", std::ref(shuffle)));
  } catch (const std::exception& e) {
    Run r;
    r.name = "shuffle";
    r.error = e.what();
    runs.push_back(r);
  }
  return runs;
}

bool allOk(const std::vector<Run>& runs) {
  return std::all_of(runs.begin(), runs.end(), [](const Run& r) { return r.ok; });
}

int runSuite(const std::string& outDir) {
  int device = 0;
  CHECK(cudaGetDevice(&device));
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, device));
  const std::string deviceName = prop.name;
  printf("device: %s (%d SMs)\n", deviceName.c_str(), prop.multiProcessorCount);

  const int N = 8192, oddN = 1000;
  cublasHandle_t handle;
  CHECK(cublasCreate(&handle));
  std::string bestName;
  std::vector<Run> transpose = benchTranspose(handle, N, oddN, bestName);
  CHECK(cublasDestroy(handle));
  fillPctOfCopy(transpose, transpose[0].ok ? transpose[0].gbps : 0);
  writeJson(outDir + "/transpose.json", deviceName, "[8192, 8192]",
            " \"ours_best_is\": \"" + bestName + "\",", transpose);
  printTable("transpose 8192x8192 f32 (GB/s = 2 * 256 MiB / median)", transpose);

  const size_t n = size_t(1) << 28, oddReduceN = (size_t(1) << 20) + 17;
  std::vector<Run> reduce = benchReduce(n, oddReduceN);
  fillPctOfCopy(reduce, reduce[0].ok ? reduce[0].gbps : 0);
  writeJson(outDir + "/reduce.json", deviceName, "[268435456]", "", reduce);
  printTable("reduce sum of 2^28 f32 (GB/s = bytes read / median; %copy vs memcpy_d2d bytes moved)",
             reduce);

  const auto* geam = &transpose[1];
  const Run* ours = nullptr;
  for (const Run& r : transpose)
    if (r.name == "ours_best") ours = &r;
  if (ours && ours->ok && geam->ok)
    printf("\nours_best (%s): %.1f%% of memcpy_d2d, %.3fx cublas_geam's bandwidth\n",
           bestName.c_str(), ours->pctOfCopy, ours->gbps / geam->gbps);

  bool ok = allOk(transpose) && allOk(reduce);
  printf("\nwrote %s/transpose.json and %s/reduce.json; %s\n", outDir.c_str(), outDir.c_str(),
         ok ? "all variants verified" : "SOME VARIANTS FAILED (see \"ok\": false)");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  try {
    return runSuite(argv[1]);
  } catch (const std::exception& e) {
    fprintf(stderr, "suite: %s\n", e.what());
    return 1;
  }
}
