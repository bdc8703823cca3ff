// aos_soa.cu: update one field of 2^26 particles in place, x = 0.5 x + 1. Ceiling in the same
// run: cudaMemcpy device-to-device of the bytes the update needs (read and write every x).
// Variants: array of structs {x, y, z} (12-byte stride: a warp's 32 x's span 384 bytes, two
// thirds of every sector fetched and written back unused), array of {x, y, z, w} (16-byte
// stride, a quarter useful), the {x, y, z, w} struct moved whole as one float4 (every byte
// read and written), and the struct of arrays (x contiguous: every byte useful). The update is
// in place, so instead of a poisoned output each variant is checked against the CPU on fresh
// random particles: every x updated exactly, every other field bit for bit unchanged, at 2^26
// and at 1000003 particles. GB/s counts the useful bytes (4 read + 4 written a particle).
#include "common.cuh"

namespace {
using namespace suite;

struct P3 {
  float x, y, z;
};
struct alignas(16) P4 {
  float x, y, z, w;
};

__device__ __forceinline__ float update(float x) { return 0.5f * x + 1.0f; }

template <class P>
__global__ void updateAos(P* __restrict__ p, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    p[i].x = update(p[i].x);
}

__global__ void updateAos4Whole(P4* __restrict__ p, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) {
    float4 v = reinterpret_cast<float4*>(p)[i];
    v.x = update(v.x);
    reinterpret_cast<float4*>(p)[i] = v;
  }
}

__global__ void updateSoa(float* __restrict__ x, size_t n) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    x[i] = update(x[i]);
}

// SoA with 16-byte accesses (4 particles a thread); the n % 4 tail by the first threads.
__global__ void updateSoaVec4(float* __restrict__ x, size_t n) {
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride) {
    float4 v = reinterpret_cast<float4*>(x)[i];
    v.x = update(v.x), v.y = update(v.y), v.z = update(v.z), v.w = update(v.w);
    reinterpret_cast<float4*>(x)[i] = v;
  }
  for (size_t i = 4 * n4 + size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    x[i] = update(x[i]);
}

float hostUpdate(float x) { return 0.5f * x + 1.0f; }  // 0.5 x is exact: fma or not, the same

// Device memory of n particles viewed as floats: fields per particle, the field updated (x) at
// index i * fields (AoS) or i (SoA, the other fields' arrays following).
struct Layout {
  int fields;
  bool soa;
  size_t xIndex(size_t i) const { return soa ? i : i * fields; }
};

using UpdateFn = std::function<void(float*, size_t)>;

void verifyUpdate(const UpdateFn& fn, const Layout& lay, size_t n, float* dev, uint64_t seed) {
  const size_t count = n * lay.fields;
  fillRandom(dev, count, seed, -1.0, 1.0);
  std::vector<float> before(count), after(count);
  CHECK(cudaMemcpy(before.data(), dev, count * sizeof(float), cudaMemcpyDeviceToHost));
  fn(dev, n);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(after.data(), dev, count * sizeof(float), cudaMemcpyDeviceToHost));
  std::vector<char> isX(count, 0);
  for (size_t i = 0; i < n; ++i) isX[lay.xIndex(i)] = 1;
  for (size_t k = 0; k < count; ++k) {
    float want = isX[k] ? hostUpdate(before[k]) : before[k];
    if (memcmp(&want, &after[k], sizeof(float)) != 0)
      fail("n=%zu: float %zu (%s) = %.9g, want %.9g", n, k, isX[k] ? "x" : "another field",
           double(after[k]), double(want));
  }
}

PartResult benchAosSoa(Context& ctx) {
  const size_t n = size_t(1) << 26, oddN = 1000003;
  const double bytes = 2.0 * n * sizeof(float);
  std::vector<Run> runs;
  runs.push_back(measureCopy(ctx, n * sizeof(float)));
  DeviceBuffer<float> buf(4 * n);  // room for n particles of up to 4 floats, either layout
  const int grid = ctx.sms * 16;

  auto variant = [&](const std::string& name, Layout lay, const UpdateFn& fn) {
    return measure(
        ctx, name, bytes,
        [&] {
          verifyUpdate(fn, lay, n, buf.ptr, ctx.nextSeed());
          verifyUpdate(fn, lay, oddN, buf.ptr, ctx.nextSeed());
        },
        [&] { fn(buf.ptr, n); });
  };
  runs.push_back(variant("aos3_update_x", {3, false}, [&](float* p, size_t len) {
    updateAos<<<grid, 256>>>(reinterpret_cast<P3*>(p), len);
    CHECK_LAUNCH("updateAos<P3>");
  }));
  runs.push_back(variant("aos4_update_x", {4, false}, [&](float* p, size_t len) {
    updateAos<<<grid, 256>>>(reinterpret_cast<P4*>(p), len);
    CHECK_LAUNCH("updateAos<P4>");
  }));
  runs.push_back(variant("aos4_whole_struct", {4, false}, [&](float* p, size_t len) {
    updateAos4Whole<<<grid, 256>>>(reinterpret_cast<P4*>(p), len);
    CHECK_LAUNCH("updateAos4Whole");
  }));
  runs.push_back(variant("soa_update_x", {3, true}, [&](float* p, size_t len) {
    updateSoa<<<grid, 256>>>(p, len);
    CHECK_LAUNCH("updateSoa");
  }));
  runs.push_back(variant("soa_update_x_vec4", {3, true}, [&](float* p, size_t len) {
    updateSoaVec4<<<grid, 256>>>(p, len);
    CHECK_LAUNCH("updateSoaVec4");
  }));

  PartResult res;
  res.sizeJson = "[67108864]";
  res.note = "(particles; in place x = 0.5 x + 1; GB/s = useful 8 bytes a particle / median)";
  res.runs = std::move(runs);
  return res;
}

}  // namespace

SUITE_MAIN("aos_soa", benchAosSoa)
