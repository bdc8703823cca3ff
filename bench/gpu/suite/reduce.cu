// reduce.cu: sum of 2^28 floats. Ceilings in the same run: cudaMemcpy device-to-device and
// cub::DeviceReduce::Sum. Variants: interleaved (divergent, conflicting tree), sequential
// addressing, and candidates for ours_best (grid-stride float4 loads, several independent
// accumulators, grid sized to the SMs, one launch finished by the last block or two launches),
// all kept in the JSON; the fastest correct one is repeated as ours_best. Each is checked on a
// NaN-poisoned result against a double-precision CPU sum at 2^28 and 2^20 + 17 elements.
// GB/s counts bytes read; "% of copy" compares that with the copy's bytes moved per second.
#include <cub/cub.cuh>

#include "common.cuh"

namespace {
using namespace suite;

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

// How the streaming kernels load 16 bytes.
enum class Load { Plain, Stream, NoAllocate };

template <Load L>
__device__ __forceinline__ float4 load4(const float4* p) {
  if constexpr (L == Load::Stream) {
    return __ldcs(p);
  } else if constexpr (L == Load::NoAllocate) {
    float4 v;
    asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
                 : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
                 : "l"(p));
    return v;
  } else {
    return __ldg(p);
  }
}

// The last block to finish (atomic ticket) sums the partials into *result and resets the ticket.
__device__ void finishByLastBlock(float sum, float* partials, unsigned int* ticket, float* result) {
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

// Grid-stride streaming sum: UNROLL independent 16-byte loads per thread per step (16*UNROLL
// bytes in flight per thread, each warp access one full 512-byte run) into UNROLL accumulators,
// then warp shuffles and one partial per block. LAST: the last block sums the partials (one
// launch); otherwise the partials are left for a second one-block launch.
template <int BLOCK, int UNROLL, Load L, bool LAST>
__global__ void __launch_bounds__(BLOCK)
    reduceStream(const float* __restrict__ in, size_t n, float* __restrict__ partials,
                 unsigned int* __restrict__ ticket, float* __restrict__ result) {
  const size_t stride = size_t(gridDim.x) * BLOCK;
  const size_t n4 = n / 4;
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = 0;
  size_t i = size_t(blockIdx.x) * BLOCK + threadIdx.x;
  for (; i + (UNROLL - 1) * stride < n4; i += UNROLL * stride) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = load4<L>(in4 + i + u * stride);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < n4; i += stride) {
    float4 v = load4<L>(in4 + i);
    acc[0] += (v.x + v.y) + (v.z + v.w);
  }
  for (size_t k = 4 * n4 + size_t(blockIdx.x) * BLOCK + threadIdx.x; k < n; k += stride)
    acc[0] += in[k];  // the n % 4 tail
  float sum = 0;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) sum += acc[u];
  sum = blockSum(sum);
  if (LAST) finishByLastBlock(sum, partials, ticket, result);
  else if (threadIdx.x == 0) partials[blockIdx.x] = sum;
}

// Second pass of the two-launch form: one block sums `count` partials.
__global__ void sumPartials(const float* __restrict__ partials, int count, float* result) {
  float s = 0;
  for (int k = threadIdx.x; k < count; k += blockDim.x) s += partials[k];
  s = blockSum(s);
  if (threadIdx.x == 0) *result = s;
}

// Contiguous chunks: block b sums its own slice of the input (n4 / gridDim.x float4s), the
// block's threads walking it together UNROLL float4s at a time; finished by the last block.
template <int BLOCK, int UNROLL>
__global__ void __launch_bounds__(BLOCK)
    reduceChunked(const float* __restrict__ in, size_t n, float* __restrict__ partials,
                  unsigned int* __restrict__ ticket, float* __restrict__ result) {
  const size_t n4 = n / 4;
  const size_t per = (n4 + gridDim.x - 1) / gridDim.x;
  const size_t begin = min(n4, per * blockIdx.x), end = min(n4, begin + per);
  const float4* in4 = reinterpret_cast<const float4*>(in);
  float acc[UNROLL];
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) acc[u] = 0;
  size_t i = begin + threadIdx.x;
  for (; i + (UNROLL - 1) * BLOCK < end; i += UNROLL * BLOCK) {
    float4 v[UNROLL];
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) v[u] = __ldg(in4 + i + u * BLOCK);
#pragma unroll
    for (int u = 0; u < UNROLL; ++u) acc[u] += (v[u].x + v[u].y) + (v[u].z + v[u].w);
  }
  for (; i < end; i += BLOCK) {
    float4 v = __ldg(in4 + i);
    acc[0] += (v.x + v.y) + (v.z + v.w);
  }
  if (blockIdx.x == 0)
    for (size_t k = 4 * n4 + threadIdx.x; k < n; k += BLOCK) acc[0] += in[k];
  float sum = 0;
#pragma unroll
  for (int u = 0; u < UNROLL; ++u) sum += acc[u];
  sum = blockSum(sum);
  finishByLastBlock(sum, partials, ticket, result);
}

using Kernel = void (*)(const float*, size_t, float*, unsigned int*, float*);

// One of the streaming kernels with its grid: `wavesPerSm` blocks per SM times the occupancy
// limit's fraction (1 = as many as fit at once), partials and ticket.
struct StreamReducer {
  Kernel kernel;
  int block, blocks;
  bool twoPass;
  std::shared_ptr<DeviceBuffer<float>> partials;
  std::shared_ptr<DeviceBuffer<unsigned int>> ticket;
  StreamReducer(Kernel k, int blockSize, int sms, int perSmWanted, bool twoLaunches)
      : kernel(k), block(blockSize), twoPass(twoLaunches) {
    int perSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, k, blockSize, 0));
    blocks = sms * std::max(1, perSmWanted > 0 ? std::min(perSm, perSmWanted) : perSm);
    partials = std::make_shared<DeviceBuffer<float>>(size_t(blocks));
    ticket = std::make_shared<DeviceBuffer<unsigned int>>(1);
    CHECK(cudaMemset(ticket->ptr, 0, sizeof(unsigned int)));
  }
  void operator()(const float* in, size_t n, float* result) const {
    kernel<<<blocks, block>>>(in, n, partials->ptr, ticket->ptr, result);
    CHECK_LAUNCH("reduce kernel");
    if (twoPass) {
      sumPartials<<<1, 1024>>>(partials->ptr, blocks, result);
      CHECK_LAUNCH("sumPartials");
    }
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

PartResult benchReduce(Context& ctx) {
  const size_t n = size_t(1) << 28, oddN = (size_t(1) << 20) + 17;
  const double bytesRead = double(n) * sizeof(float);
  std::vector<Run> runs;
  // Ceiling: copy half the input's bytes (bytes moved = read + written = the input's size).
  runs.push_back(measureCopy(ctx, n / 2 * sizeof(float)));

  DeviceBuffer<float> in(n), oddIn(oddN), result(1);
  DeviceBuffer<float> bufA(n / kReduceBlock + 1), bufB(n / kReduceBlock + 1);
  // Inputs in [0, 1): the sum grows with n, so a lost partial shows as a relative error.
  fillRandom(in.ptr, n, ctx.nextSeed(), 0.0, 1.0);
  fillRandom(oddIn.ptr, oddN, ctx.nextSeed(), 0.0, 1.0);
  const double want = cpuSum(in.download()), oddWant = cpuSum(oddIn.download());

  auto variant = [&](const std::string& name, const ReduceFn& fn) {
    return measure(
        ctx, name, bytesRead,
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
    runs.push_back(failedRun("cub_reduce", e));
  }
  runs.push_back(variant("interleaved", [&](const float* p, size_t len, float* out) {
    reduceByPasses(reduceInterleaved, p, int(len), out, bufA.ptr, bufB.ptr);
  }));
  runs.push_back(variant("sequential", [&](const float* p, size_t len, float* out) {
    reduceByPasses(reduceSequential, p, int(len), out, bufA.ptr, bufB.ptr);
  }));

  struct Candidate {
    const char* name;
    Kernel kernel;
    int block, perSm;
    bool twoPass;
  };
  const Candidate candidates[] = {
      // "shuffle" is the previous run's kernel: 256 threads, 4 float4s, as many blocks as fit.
      {"shuffle", reduceStream<256, 4, Load::Plain, true>, 256, 0, false},
      {"cand_b256_u8", reduceStream<256, 8, Load::Plain, true>, 256, 0, false},
      {"cand_b512_u4", reduceStream<512, 4, Load::Plain, true>, 512, 0, false},
      {"cand_b512_u8", reduceStream<512, 8, Load::Plain, true>, 512, 0, false},
      {"cand_b1024_u4", reduceStream<1024, 4, Load::Plain, true>, 1024, 0, false},
      {"cand_b256_u8_2blk", reduceStream<256, 8, Load::Plain, true>, 256, 2, false},
      {"cand_b256_u16_2blk", reduceStream<256, 16, Load::Plain, true>, 256, 2, false},
      {"cand_b256_u8_stream", reduceStream<256, 8, Load::Stream, true>, 256, 0, false},
      {"cand_b256_u8_noalloc", reduceStream<256, 8, Load::NoAllocate, true>, 256, 0, false},
      {"cand_b512_u8_noalloc", reduceStream<512, 8, Load::NoAllocate, true>, 512, 0, false},
      {"cand_b256_u8_twopass", reduceStream<256, 8, Load::Plain, false>, 256, 0, true},
      {"cand_chunk_b256_u8", reduceChunked<256, 8>, 256, 0, false},
      {"cand_chunk_b512_u4", reduceChunked<512, 4>, 512, 0, false},
  };
  std::vector<Run> cands;
  for (const Candidate& c : candidates) {
    try {
      StreamReducer r(c.kernel, c.block, ctx.sms, c.perSm, c.twoPass);
      cands.push_back(variant(c.name, r));
    } catch (const std::exception& e) {
      cands.push_back(failedRun(c.name, e));
    }
  }
  std::string bestName;
  runs.push_back(pickBest(cands, &bestName));
  runs.insert(runs.end(), cands.begin(), cands.end());

  PartResult res;
  res.sizeJson = "[268435456]";
  res.extraJson = "\"ours_best_is\": \"" + bestName + "\"";
  res.note = "(GB/s = bytes read / median; % of copy against the copy's bytes moved; ours_best is " +
             bestName + ")";
  res.runs = std::move(runs);
  return res;
}

}  // namespace

SUITE_MAIN("reduce", benchReduce)
