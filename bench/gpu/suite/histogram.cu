// histogram.cu: 256-bin histogram of 2^28 random bytes. Ceilings in the same run: cudaMemcpy
// device-to-device and cub::DeviceHistogram::HistogramEven. Variants: naive (one global atomic
// per byte), privatized (a shared-memory histogram per block, 16-byte loads, the last block
// summing the blocks' histograms, so no memset and no global atomics), and privatized per warp
// (a sub-histogram per warp: less contention on the shared atomics). Every bin is checked
// against a CPU count, on a poisoned histogram, at 2^28 and at 1000003 bytes.
// GB/s counts bytes read; "% of copy" compares that with the copy's bytes moved per second.
#include <cub/cub.cuh>

#include "common.cuh"

namespace {
using namespace suite;

constexpr int kBins = 256;

// naive: every byte is an atomicAdd on one of 256 global counters (zeroed first).
__global__ void histNaive(const unsigned char* __restrict__ in, size_t n,
                          unsigned int* __restrict__ hist) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x)
    atomicAdd(&hist[in[i]], 1u);
}

// Privatized: COPIES shared sub-histograms per block (1: one per block; blockDim/32: one per
// warp), each thread reading 16 bytes at a time with a grid stride. Each block writes its
// counts to partials[block][bin]; the last block to finish (atomic ticket) sums them into hist.
template <int BLOCK, int COPIES>
__global__ void __launch_bounds__(BLOCK)
    histPrivate(const unsigned char* __restrict__ in, size_t n, unsigned int* __restrict__ partials,
                unsigned int* __restrict__ ticket, unsigned int* __restrict__ hist) {
  __shared__ unsigned int s[COPIES * kBins];
  for (int k = threadIdx.x; k < COPIES * kBins; k += BLOCK) s[k] = 0;
  __syncthreads();
  unsigned int* mine = s + (COPIES == 1 ? 0 : (threadIdx.x / (BLOCK / COPIES)) * kBins);
  const size_t n16 = n / 16, stride = size_t(gridDim.x) * BLOCK;
  const uint4* in16 = reinterpret_cast<const uint4*>(in);
  for (size_t i = size_t(blockIdx.x) * BLOCK + threadIdx.x; i < n16; i += stride) {
    uint4 v = __ldg(in16 + i);
    unsigned int w[4] = {v.x, v.y, v.z, v.w};
#pragma unroll
    for (int q = 0; q < 4; ++q)
#pragma unroll
      for (int b = 0; b < 4; ++b) atomicAdd(&mine[(w[q] >> (8 * b)) & 0xFF], 1u);
  }
  for (size_t k = 16 * n16 + size_t(blockIdx.x) * BLOCK + threadIdx.x; k < n; k += stride)
    atomicAdd(&mine[in[k]], 1u);  // the n % 16 tail
  __syncthreads();
  for (int bin = threadIdx.x; bin < kBins; bin += BLOCK) {
    unsigned int c = 0;
#pragma unroll
    for (int k = 0; k < COPIES; ++k) c += s[k * kBins + bin];
    partials[size_t(blockIdx.x) * kBins + bin] = c;
  }
  __threadfence();
  __syncthreads();
  __shared__ bool isLast;
  if (threadIdx.x == 0) isLast = atomicAdd(ticket, 1u) == gridDim.x - 1;
  __syncthreads();
  if (!isLast) return;
  __threadfence();
  const volatile unsigned int* p = partials;
  for (int bin = threadIdx.x; bin < kBins; bin += BLOCK) {
    unsigned int c = 0;
    for (unsigned int b = 0; b < gridDim.x; ++b) c += p[size_t(b) * kBins + bin];
    hist[bin] = c;
  }
  if (threadIdx.x == 0) *ticket = 0;
}

using HistFn = std::function<void(const unsigned char*, size_t, unsigned int*)>;

template <int BLOCK, int COPIES>
struct PrivateHist {
  int blocks;
  std::shared_ptr<DeviceBuffer<unsigned int>> partials, ticket;
  explicit PrivateHist(int sms) {
    int perSm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, histPrivate<BLOCK, COPIES>, BLOCK, 0));
    blocks = sms * std::max(perSm, 1);
    partials = std::make_shared<DeviceBuffer<unsigned int>>(size_t(blocks) * kBins);
    ticket = std::make_shared<DeviceBuffer<unsigned int>>(1);
    CHECK(cudaMemset(ticket->ptr, 0, sizeof(unsigned int)));
  }
  void operator()(const unsigned char* in, size_t n, unsigned int* hist) const {
    histPrivate<BLOCK, COPIES><<<blocks, BLOCK>>>(in, n, partials->ptr, ticket->ptr, hist);
    CHECK_LAUNCH("histPrivate");
  }
};

struct CubHist {
  std::shared_ptr<DeviceBuffer<unsigned char>> temp;
  explicit CubHist(size_t maxN) {
    size_t bytes = 0;
    CHECK(cub::DeviceHistogram::HistogramEven(nullptr, bytes, static_cast<const unsigned char*>(nullptr),
                                              static_cast<unsigned int*>(nullptr), kBins + 1, 0,
                                              kBins, int64_t(maxN)));
    temp = std::make_shared<DeviceBuffer<unsigned char>>(std::max<size_t>(bytes, 1));
  }
  void operator()(const unsigned char* in, size_t n, unsigned int* hist) const {
    size_t bytes = temp->bytes();
    CHECK(cub::DeviceHistogram::HistogramEven(temp->ptr, bytes, in, hist, kBins + 1, 0, kBins,
                                              int64_t(n)));
  }
};

std::vector<unsigned int> cpuHist(const std::vector<unsigned char>& v) {
  std::vector<unsigned int> h(kBins, 0);
  for (unsigned char b : v) ++h[b];
  return h;
}

void verifyHist(const HistFn& fn, const DeviceBuffer<unsigned char>& in,
                const std::vector<unsigned int>& want, DeviceBuffer<unsigned int>& hist) {
  hist.poison(kNanBytes);
  fn(in.ptr, in.count, hist.ptr);
  CHECK(cudaDeviceSynchronize());
  std::vector<unsigned int> got = hist.download();
  for (int b = 0; b < kBins; ++b)
    if (got[b] != want[b]) fail("n=%zu: bin %d = %u, want %u", in.count, b, got[b], want[b]);
}

PartResult benchHistogram(Context& ctx) {
  const size_t n = size_t(1) << 28, oddN = 1000003;
  std::vector<Run> runs;
  runs.push_back(measureCopy(ctx, n / 2));  // bytes moved = the input's size

  DeviceBuffer<unsigned char> in(n), oddIn(oddN);
  DeviceBuffer<unsigned int> hist(kBins);
  fillRandom(in.ptr, n, ctx.nextSeed(), 0, 256);
  fillRandom(oddIn.ptr, oddN, ctx.nextSeed(), 0, 256);
  const std::vector<unsigned int> want = cpuHist(in.download()), oddWant = cpuHist(oddIn.download());

  auto variant = [&](const std::string& name, const HistFn& fn) {
    return measure(
        ctx, name, double(n),
        [&] {
          verifyHist(fn, in, want, hist);
          verifyHist(fn, oddIn, oddWant, hist);
        },
        [&] { fn(in.ptr, n, hist.ptr); });
  };
  try {
    runs.push_back(variant("cub_histogram_even", CubHist(n)));
  } catch (const std::exception& e) {
    runs.push_back(failedRun("cub_histogram_even", e));
  }
  runs.push_back(variant("naive", [&](const unsigned char* p, size_t len, unsigned int* h) {
    CHECK(cudaMemsetAsync(h, 0, kBins * sizeof(unsigned int)));
    histNaive<<<ctx.sms * 8, 256>>>(p, len, h);
    CHECK_LAUNCH("histNaive");
  }));
  std::vector<Run> cands;
  auto cand = [&](const char* name, auto make) {
    try {
      cands.push_back(variant(name, make()));
    } catch (const std::exception& e) {
      cands.push_back(failedRun(name, e));
    }
  };
  cand("privatized", [&] { return PrivateHist<256, 1>(ctx.sms); });
  cand("privatized_b512", [&] { return PrivateHist<512, 1>(ctx.sms); });
  cand("privatized_per_warp", [&] { return PrivateHist<256, 8>(ctx.sms); });
  cand("privatized_per_warp_b512", [&] { return PrivateHist<512, 16>(ctx.sms); });
  std::string bestName;
  runs.push_back(pickBest(cands, &bestName));
  runs.insert(runs.end(), cands.begin(), cands.end());

  PartResult res;
  res.sizeJson = "[268435456]";
  res.dtype = "u8";
  res.extraJson = "\"bins\": 256, \"ours_best_is\": \"" + bestName + "\"";
  res.note = "(256 bins of random bytes; GB/s = bytes read / median; ours_best is " + bestName + ")";
  res.runs = std::move(runs);
  return res;
}

}  // namespace

SUITE_MAIN("histogram", benchHistogram)
