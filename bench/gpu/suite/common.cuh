// common.cuh: what every part of the GPU suite shares: error checks, device buffers, seeded
// random inputs (generated on the device, read back for the CPU reference), timing with CUDA
// events, the copy ceiling, and the JSON/table output.
//
// Each part is its own program (transpose.cu, reduce.cu, ...) whose main is SUITE_MAIN(fn):
//   part OUTDIR   -> OUTDIR/<part>.json, a table on stdout; exit 1 if any variant failed its
//                    CPU check or a CUDA call failed (the other variants are still measured and
//                    written, with "ok": false and the error).
// SUITE_SEED=N in the environment fixes the inputs; otherwise each run draws a fresh seed,
// printed and written to the JSON as "seed".
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdarg>
#include <type_traits>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace suite {

// ---------------------------------------------------------------------------------------------
// Errors: every call is checked; a failure throws, and measure() records the variant as not ok.

inline void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(e));
}
#define CHECK(call) ::suite::check((call), #call)
#define CHECK_LAUNCH(what) ::suite::check(cudaGetLastError(), what)

// A wrong result: thrown by the CPU checks with the first differing element.
[[noreturn]] inline void fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
inline void fail(const char* fmt, ...) {
  char msg[512];
  va_list args;
  va_start(args, fmt);
  vsnprintf(msg, sizeof msg, fmt, args);
  va_end(args);
  throw std::runtime_error(msg);
}

template <class T>
struct DeviceBuffer {
  T* ptr = nullptr;
  size_t count = 0;
  explicit DeviceBuffer(size_t n) : count(n) { CHECK(cudaMalloc(&ptr, std::max<size_t>(n, 1) * sizeof(T))); }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  size_t bytes() const { return count * sizeof(T); }
  std::vector<T> download() const {
    std::vector<T> v(count);
    CHECK(cudaMemcpy(v.data(), ptr, bytes(), cudaMemcpyDeviceToHost));
    return v;
  }
  void upload(const std::vector<T>& v) {
    if (v.size() != count) throw std::runtime_error("upload: size mismatch");
    CHECK(cudaMemcpy(ptr, v.data(), bytes(), cudaMemcpyHostToDevice));
  }
  void poison(unsigned char byte) { CHECK(cudaMemset(ptr, byte, bytes())); }
};

constexpr unsigned char kNanBytes = 0xFF;     // 0xFFFFFFFF: a float NaN, an int -1
constexpr unsigned char kFiniteBytes = 0xC7;  // 0xC7C7C7C7 = -102287.6f: far outside any input

// Counter-based generator (splitmix64 of seed ^ index): the same value on host and device.
__host__ __device__ inline uint64_t mix64(uint64_t z) {
  z += 0x9E3779B97F4A7C15ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
__host__ __device__ inline uint64_t randomBits(uint64_t seed, uint64_t i) {
  return mix64(seed * 0x2545F4914F6CDD1Dull ^ mix64(i));
}

template <class T>
__global__ void fillRandomKernel(T* out, size_t n, uint64_t seed, double lo, double hi) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    uint64_t bits = randomBits(seed, i);
    if constexpr (std::is_floating_point_v<T>)
      out[i] = T(lo + (hi - lo) * double(bits >> 40) * 0x1p-24);
    else
      out[i] = T(int64_t(lo) + int64_t(bits % uint64_t(int64_t(hi) - int64_t(lo))));
  }
}

// Fills with uniform values in [lo, hi) (integers: lo .. hi-1).
template <class T>
void fillRandom(T* dev, size_t n, uint64_t seed, double lo, double hi) {
  fillRandomKernel<T><<<1024, 256>>>(dev, n, seed, lo, hi);
  CHECK_LAUNCH("fillRandom");
  CHECK(cudaDeviceSynchronize());
}

// ---------------------------------------------------------------------------------------------
// One part's context: seed, repetitions, the device.

struct Context {
  std::string part, outDir, device;
  uint64_t seed = 0;
  int sms = 0;
  int warmup = 10;
  int reps = 100;
  uint64_t nextSeed() { return seed = mix64(seed); }
};

struct Run {
  std::string name;
  double medianMs = 0, minMs = 0, maxMs = 0, gbps = 0, pctOfCopy = 0;
  double gflops = 0;  // only where the work is arithmetic (GEMM)
  bool ok = false;
  std::string error;
};

struct Stats {
  double median, min, max;
};

// Warm up, then time each of ctx.reps launches with its own pair of events.
inline Stats timeLaunches(const Context& ctx, const std::function<void()>& launch) {
  for (int i = 0; i < ctx.warmup; ++i) launch();
  CHECK(cudaDeviceSynchronize());
  const int reps = std::max(ctx.reps, 1);
  std::vector<cudaEvent_t> start(reps), stop(reps);
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventCreate(&start[i]));
    CHECK(cudaEventCreate(&stop[i]));
  }
  for (int i = 0; i < reps; ++i) {
    CHECK(cudaEventRecord(start[i]));
    launch();
    CHECK(cudaEventRecord(stop[i]));
  }
  CHECK(cudaEventSynchronize(stop[reps - 1]));
  std::vector<double> ms(reps);
  for (int i = 0; i < reps; ++i) {
    float t = 0;
    CHECK(cudaEventElapsedTime(&t, start[i], stop[i]));
    ms[i] = t;
    cudaEventDestroy(start[i]);
    cudaEventDestroy(stop[i]);
  }
  std::sort(ms.begin(), ms.end());
  double median = reps % 2 ? ms[reps / 2] : 0.5 * (ms[reps / 2 - 1] + ms[reps / 2]);
  return {median, ms.front(), ms.back()};
}

// Runs one variant: verify (throws on a wrong result), then time. A failure is recorded and
// printed, not propagated. `bytes`: the bytes the operation must move (for GB/s); `flops`:
// arithmetic work, 0 if not reported.
inline Run measure(const Context& ctx, const std::string& name, double bytes,
                   const std::function<void()>& verify, const std::function<void()>& launch,
                   double flops = 0) {
  Run run;
  run.name = name;
  try {
    verify();
    Stats s = timeLaunches(ctx, launch);
    run.medianMs = s.median;
    run.minMs = s.min;
    run.maxMs = s.max;
    run.gbps = bytes / (s.median * 1e-3) / 1e9;
    run.gflops = flops / (s.median * 1e-3) / 1e9;
    run.ok = true;
  } catch (const std::exception& e) {
    run.error = e.what();
    fprintf(stderr, "FAIL %s/%s: %s\n", ctx.part.c_str(), name.c_str(), e.what());
    cudaGetLastError();  // clear a non-sticky error so the next variant can run
  }
  return run;
}

// The ceiling: cudaMemcpy device-to-device of `bytes` bytes (reported as 2 * bytes moved).
inline Run measureCopy(const Context& ctx, size_t bytes) {
  Run r;
  try {
    DeviceBuffer<unsigned char> src(bytes), dst(bytes);
    CHECK(cudaMemset(src.ptr, 1, bytes));
    r = measure(ctx, "memcpy_d2d", 2.0 * double(bytes), [] {}, [&] {
      CHECK(cudaMemcpyAsync(dst.ptr, src.ptr, bytes, cudaMemcpyDeviceToDevice));
    });
  } catch (const std::exception& e) {
    r.name = "memcpy_d2d";
    r.error = e.what();
  }
  return r;
}

// The fastest correct run among `cands`, renamed ours_best (its own name goes to *bestName).
inline Run pickBest(const std::vector<Run>& cands, std::string* bestName) {
  const Run* best = nullptr;
  for (const Run& r : cands)
    if (r.ok && (!best || r.medianMs < best->medianMs)) best = &r;
  Run out;
  if (best) {
    out = *best;
    *bestName = best->name;
  } else {
    out.error = "no candidate passed verification";
  }
  out.name = "ours_best";
  return out;
}

// What a part hands back: its runs, the "size" JSON value, and extra top-level JSON members.
struct PartResult {
  std::string sizeJson = "[]";
  std::string dtype = "f32";
  std::string extraJson;  // e.g. "\"ours_best_is\": \"x\"" (no leading comma)
  std::string note;       // printed above the table
  std::vector<Run> runs;
};

inline std::string jsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

inline void fillPctOfCopy(std::vector<Run>& runs) {
  double copy = 0;
  for (const Run& r : runs)
    if (r.name == "memcpy_d2d" && r.ok) copy = r.gbps;
  for (Run& r : runs) r.pctOfCopy = (r.ok && copy > 0) ? 100.0 * r.gbps / copy : 0;
}

inline void writeJson(const Context& ctx, const PartResult& res) {
  std::string path = ctx.outDir + "/" + ctx.part + ".json";
  FILE* f = fopen(path.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write " + path);
  fprintf(f, "{\"device\": \"%s\", \"size\": %s, \"dtype\": \"%s\", \"seed\": %llu, \"reps\": %d,",
          jsonEscape(ctx.device).c_str(), res.sizeJson.c_str(), res.dtype.c_str(),
          (unsigned long long)ctx.seed, ctx.reps);
  if (!res.extraJson.empty()) fprintf(f, " %s,", res.extraJson.c_str());
  fprintf(f, " \"runs\": [\n");
  for (size_t i = 0; i < res.runs.size(); ++i) {
    const Run& r = res.runs[i];
    fprintf(f,
            "  {\"name\": \"%s\", \"median_ms\": %.5f, \"min_ms\": %.5f, \"max_ms\": %.5f, "
            "\"gbps\": %.1f, \"pct_of_copy\": %.1f",
            r.name.c_str(), r.medianMs, r.minMs, r.maxMs, r.gbps, r.pctOfCopy);
    if (r.gflops > 0) fprintf(f, ", \"gflops\": %.1f", r.gflops);
    fprintf(f, ", \"ok\": %s", r.ok ? "true" : "false");
    if (!r.ok) fprintf(f, ", \"error\": \"%s\"", jsonEscape(r.error).c_str());
    fprintf(f, "}%s\n", i + 1 < res.runs.size() ? "," : "");
  }
  fprintf(f, "]}\n");
  fclose(f);
}

inline void printTable(const Context& ctx, const PartResult& res) {
  printf("\n== %s %s %s\n", ctx.part.c_str(), res.sizeJson.c_str(), res.note.c_str());
  printf("%-26s %10s %10s %10s %9s %7s %9s  %s\n", "variant", "median_ms", "min_ms", "max_ms",
         "GB/s", "%copy", "GFLOP/s", "ok");
  for (const Run& r : res.runs)
    printf("%-26s %10.4f %10.4f %10.4f %9.1f %6.1f%% %9.1f  %s\n", r.name.c_str(), r.medianMs,
           r.minMs, r.maxMs, r.gbps, r.pctOfCopy, r.gflops,
           r.ok ? "yes" : ("NO: " + r.error).c_str());
}

// A variant that could not even be set up (e.g. its workspace allocation failed).
inline Run failedRun(const std::string& name, const std::exception& e) {
  Run r;
  r.name = name;
  r.error = e.what();
  fprintf(stderr, "FAIL %s: %s\n", name.c_str(), e.what());
  return r;
}

inline int partMain(int argc, char** argv, const char* part, PartResult (*bench)(Context&)) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s OUTDIR   (writes OUTDIR/%s.json)\n", argv[0], part);
    return 2;
  }
  Context ctx;
  ctx.part = part;
  ctx.outDir = argv[1];
  if (const char* s = getenv("SUITE_SEED")) ctx.seed = strtoull(s, nullptr, 0);
  else ctx.seed = (uint64_t(std::random_device{}()) << 32) ^ std::random_device{}();
  if (const char* s = getenv("SUITE_REPS")) ctx.reps = std::max(1, atoi(s));
  auto t0 = std::chrono::steady_clock::now();
  try {
    int dev = 0;
    CHECK(cudaGetDevice(&dev));
    cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, dev));
    ctx.device = prop.name;
    ctx.sms = prop.multiProcessorCount;
    printf("%s: %s (%d SMs), seed %llu\n", part, prop.name, ctx.sms, (unsigned long long)ctx.seed);
    PartResult res = bench(ctx);
    fillPctOfCopy(res.runs);
    writeJson(ctx, res);
    printTable(ctx, res);
    bool ok = std::all_of(res.runs.begin(), res.runs.end(), [](const Run& r) { return r.ok; });
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    printf("%s: %.1f s; wrote %s/%s.json; %s\n", part, s, ctx.outDir.c_str(), part,
           ok ? "all variants verified" : "SOME VARIANTS FAILED (\"ok\": false)");
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    fprintf(stderr, "%s: %s\n", part, e.what());
    return 1;
  }
}

// Warp and block sums (shuffles within warps, one shared word per warp).
template <class T>
__device__ __forceinline__ T warpSum(T v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xFFFFFFFFu, v, offset);
  return v;
}

// Sum of one value per thread, valid in thread 0. blockDim.x must be a multiple of 32.
template <class T>
__device__ T blockSum(T v) {
  __shared__ T warpSums[32];
  int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  v = warpSum(v);
  if (lane == 0) warpSums[warp] = v;
  __syncthreads();
  v = threadIdx.x < blockDim.x / 32 ? warpSums[lane] : T(0);
  if (warp == 0) v = warpSum(v);
  __syncthreads();  // warpSums may be reused by a later call
  return v;
}

}  // namespace suite

#define SUITE_MAIN(part, fn) \
  int main(int argc, char** argv) { return ::suite::partMain(argc, argv, part, fn); }
