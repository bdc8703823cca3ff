// scan.cu: exclusive prefix sum of 2^27 random 32-bit unsigned integers (0..15). Ceilings in
// the same run: cudaMemcpy device-to-device and cub::DeviceScan::ExclusiveSum. Variants, all
// three-phase (scan each block's tile and keep its total; scan the totals, recursively; add
// each block's offset): Hillis-Steele (naive: log2(B) steps over every element, double
// buffered), Blelloch work-efficient with the bank conflicts of its power-of-two strides, and
// Blelloch with the conflict-free padding (one spare word every 32). Every element is checked
// against a CPU scan on a poisoned output, at 2^27 and at 1000003 elements.
// GB/s counts bytes read plus written (2 x 4 bytes an element).
#include <cub/cub.cuh>

#include "common.cuh"

namespace {
using namespace suite;

// Hillis-Steele: BLOCK elements per block, one per thread; step d adds the element d back.
template <int BLOCK>
__global__ void __launch_bounds__(BLOCK)
    scanHillisSteele(const unsigned int* __restrict__ in, unsigned int* __restrict__ out,
                     unsigned int* __restrict__ sums, size_t n) {
  __shared__ unsigned int s[2][BLOCK];
  const int t = threadIdx.x;
  const size_t i = size_t(blockIdx.x) * BLOCK + t;
  const unsigned int x = i < n ? in[i] : 0u;
  int cur = 0;
  s[cur][t] = x;
  __syncthreads();
  for (int d = 1; d < BLOCK; d *= 2) {
    s[1 - cur][t] = t >= d ? s[cur][t] + s[cur][t - d] : s[cur][t];
    cur = 1 - cur;
    __syncthreads();
  }
  if (i < n) out[i] = s[cur][t] - x;  // inclusive minus own element
  if (t == BLOCK - 1) sums[blockIdx.x] = s[cur][t];
}

// Blelloch (GPU Gems 3, ch. 39): 2 * BLOCK elements per block, up-sweep then down-sweep in
// shared memory. The tree's strides are powers of two, so without PAD the accesses of a warp
// fall into few banks (up to 16-way at the deep levels); PAD spreads index i to i + i / 32.
template <int BLOCK, bool PAD>
__device__ __forceinline__ int smemIndex(int i) {
  return PAD ? i + (i >> 5) : i;
}

template <int BLOCK, bool PAD>
__global__ void __launch_bounds__(BLOCK)
    scanBlelloch(const unsigned int* __restrict__ in, unsigned int* __restrict__ out,
                 unsigned int* __restrict__ sums, size_t n) {
  constexpr int E = 2 * BLOCK;
  __shared__ unsigned int s[E + (PAD ? E / 32 : 0)];
  const int t = threadIdx.x;
  const size_t base = size_t(blockIdx.x) * E;
  const int a = t, b = t + BLOCK;
  s[smemIndex<BLOCK, PAD>(a)] = base + a < n ? in[base + a] : 0u;
  s[smemIndex<BLOCK, PAD>(b)] = base + b < n ? in[base + b] : 0u;
  int offset = 1;
  for (int d = BLOCK; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      s[smemIndex<BLOCK, PAD>(bi)] += s[smemIndex<BLOCK, PAD>(ai)];
    }
    offset *= 2;
  }
  if (t == 0) {
    sums[blockIdx.x] = s[smemIndex<BLOCK, PAD>(E - 1)];
    s[smemIndex<BLOCK, PAD>(E - 1)] = 0;
  }
  for (int d = 1; d < E; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
      unsigned int v = s[smemIndex<BLOCK, PAD>(ai)];
      s[smemIndex<BLOCK, PAD>(ai)] = s[smemIndex<BLOCK, PAD>(bi)];
      s[smemIndex<BLOCK, PAD>(bi)] += v;
    }
  }
  __syncthreads();
  if (base + a < n) out[base + a] = s[smemIndex<BLOCK, PAD>(a)];
  if (base + b < n) out[base + b] = s[smemIndex<BLOCK, PAD>(b)];
}

// Phase 3: adds the scanned block totals to each block's elements.
__global__ void addOffsets(unsigned int* __restrict__ out, size_t n,
                           const unsigned int* __restrict__ offsets, int perBlock) {
  const size_t base = size_t(blockIdx.x) * perBlock;
  const unsigned int add = offsets[blockIdx.x];
  for (int k = threadIdx.x; k < perBlock; k += blockDim.x)
    if (base + k < n) out[base + k] += add;
}

using BlockScan = void (*)(const unsigned int*, unsigned int*, unsigned int*, size_t);

// A three-phase scan with its per-level buffers of block totals, sized for up to maxN elements.
struct LevelScan {
  BlockScan kernel;
  int block, perBlock;
  std::vector<std::shared_ptr<DeviceBuffer<unsigned int>>> sums, scanned;
  LevelScan(BlockScan k, int blockSize, int elemsPerBlock, size_t maxN)
      : kernel(k), block(blockSize), perBlock(elemsPerBlock) {
    for (size_t len = maxN; len > 1; len = (len + perBlock - 1) / perBlock) {
      size_t blocks = (len + perBlock - 1) / perBlock;
      sums.push_back(std::make_shared<DeviceBuffer<unsigned int>>(blocks));
      scanned.push_back(std::make_shared<DeviceBuffer<unsigned int>>(blocks));
    }
  }
  void scan(const unsigned int* in, unsigned int* out, size_t n, size_t level) const {
    const size_t blocks = (n + perBlock - 1) / perBlock;
    if (level >= sums.size()) throw std::runtime_error("scan: more levels than allocated");
    kernel<<<unsigned(blocks), block>>>(in, out, sums[level]->ptr, n);
    CHECK_LAUNCH("block scan");
    if (blocks > 1) {
      scan(sums[level]->ptr, scanned[level]->ptr, blocks, level + 1);
      addOffsets<<<unsigned(blocks), 256>>>(out, n, scanned[level]->ptr, perBlock);
      CHECK_LAUNCH("addOffsets");
    }
  }
  void operator()(const unsigned int* in, unsigned int* out, size_t n) const { scan(in, out, n, 0); }
};

struct CubScan {
  std::shared_ptr<DeviceBuffer<unsigned char>> temp;
  explicit CubScan(size_t maxN) {
    size_t bytes = 0;
    CHECK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, static_cast<const unsigned int*>(nullptr),
                                        static_cast<unsigned int*>(nullptr), int64_t(maxN)));
    temp = std::make_shared<DeviceBuffer<unsigned char>>(std::max<size_t>(bytes, 1));
  }
  void operator()(const unsigned int* in, unsigned int* out, size_t n) const {
    size_t bytes = temp->bytes();
    CHECK(cub::DeviceScan::ExclusiveSum(temp->ptr, bytes, in, out, int64_t(n)));
  }
};

using ScanFn = std::function<void(const unsigned int*, unsigned int*, size_t)>;

struct ScanCase {
  DeviceBuffer<unsigned int> in, out;
  std::vector<unsigned int> want;
  ScanCase(size_t n, uint64_t seed) : in(n), out(n), want(n) {
    fillRandom(in.ptr, n, seed, 0, 16);
    std::vector<unsigned int> host = in.download();
    unsigned int acc = 0;
    for (size_t i = 0; i < n; ++i) want[i] = acc, acc += host[i];
  }
  void verify(const ScanFn& fn) {
    out.poison(kNanBytes);
    fn(in.ptr, out.ptr, in.count);
    CHECK(cudaDeviceSynchronize());
    std::vector<unsigned int> got = out.download();
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] != want[i]) fail("n=%zu: out[%zu] = %u, want %u", got.size(), i, got[i], want[i]);
  }
};

PartResult benchScan(Context& ctx) {
  const size_t n = size_t(1) << 27, oddN = 1000003;
  std::vector<Run> runs;
  runs.push_back(measureCopy(ctx, n * sizeof(unsigned int)));
  ScanCase big(n, ctx.nextSeed()), odd(oddN, ctx.nextSeed());
  auto variant = [&](const std::string& name, const ScanFn& fn) {
    return measure(
        ctx, name, 2.0 * n * sizeof(unsigned int),
        [&] {
          big.verify(fn);
          odd.verify(fn);
        },
        [&] { fn(big.in.ptr, big.out.ptr, n); });
  };
  auto guarded = [&](const char* name, auto make) {
    try {
      return variant(name, make());
    } catch (const std::exception& e) {
      return failedRun(name, e);
    }
  };
  runs.push_back(guarded("cub_exclusive_sum", [&] { return CubScan(n); }));
  runs.push_back(guarded("hillis_steele", [&] { return LevelScan(scanHillisSteele<512>, 512, 512, n); }));
  runs.push_back(guarded("blelloch", [&] { return LevelScan(scanBlelloch<512, false>, 512, 1024, n); }));
  runs.push_back(guarded("blelloch_padded", [&] { return LevelScan(scanBlelloch<512, true>, 512, 1024, n); }));
  runs.push_back(guarded("blelloch_padded_b256", [&] { return LevelScan(scanBlelloch<256, true>, 256, 512, n); }));

  PartResult res;
  res.sizeJson = "[134217728]";
  res.dtype = "u32";
  res.note = "(exclusive sum; GB/s = 2 x 4 bytes x n / median)";
  res.runs = std::move(runs);
  return res;
}

}  // namespace

SUITE_MAIN("scan", benchScan)
