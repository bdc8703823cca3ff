// copies.cu: strided and misaligned float copies. Ceiling in the same run: cudaMemcpy
// device-to-device of the bytes copied. strided_S: out[i] = in[i * S] for S = 1, 2, 4, 8, 32
// (a warp's 32 loads span 128 S bytes, so from S = 8 on every float costs a whole 32-byte
// sector); offset_K: out[i] = in[i + K] for K = 0, 1, 2, 4, 8, 16, 32 floats (a warp's 128
// bytes of input start 4K bytes into a line: five 32-byte sectors instead of four unless 4K is
// a multiple of 32); vec4 is the aligned copy with 16-byte accesses. n = 2^24 + 3 outputs (not a multiple of 32); each is
// checked bit for bit on a poisoned output. GB/s counts 4 bytes read + 4 written per output.
#include "common.cuh"

namespace {
using namespace suite;

__global__ void copyStrided(const float* __restrict__ in, float* __restrict__ out, size_t n, int stride) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i * stride];
}

__global__ void copyOffset(const float* __restrict__ in, float* __restrict__ out, size_t n, int offset) {
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    out[i] = in[i + offset];
}

__global__ void copyVec4(const float* __restrict__ in, float* __restrict__ out, size_t n) {
  const size_t n4 = n / 4, stride = size_t(gridDim.x) * blockDim.x;
  for (size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride)
    reinterpret_cast<float4*>(out)[i] = reinterpret_cast<const float4*>(in)[i];
  for (size_t i = 4 * n4 + size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[i] = in[i];
}

PartResult benchCopies(Context& ctx) {
  const size_t n = (size_t(1) << 24) + 3;
  const int strides[] = {1, 2, 4, 8, 32};
  const int offsets[] = {0, 1, 2, 4, 8, 16, 32};
  const size_t inCount = n * 32 + 32;
  const double bytes = 2.0 * n * sizeof(float);
  const int grid = ctx.sms * 16;
  std::vector<Run> runs;
  runs.push_back(measureCopy(ctx, n * sizeof(float)));

  DeviceBuffer<float> in(inCount), out(n);
  fillRandom(in.ptr, inCount, ctx.nextSeed(), -1.0, 1.0);
  const std::vector<float> host = in.download();
  // want(i): the input index output i must hold.
  auto variant = [&](const std::string& name, const std::function<size_t(size_t)>& want,
                     const std::function<void()>& launch) {
    return measure(
        ctx, name, bytes,
        [&] {
          out.poison(kNanBytes);
          launch();
          CHECK(cudaDeviceSynchronize());
          std::vector<float> got = out.download();
          for (size_t i = 0; i < n; ++i)
            if (memcmp(&got[i], &host[want(i)], sizeof(float)) != 0)
              fail("out[%zu] = %.9g, want in[%zu] = %.9g", i, double(got[i]), want(i),
                   double(host[want(i)]));
        },
        launch);
  };
  for (int s : strides)
    runs.push_back(variant("strided_" + std::to_string(s), [s](size_t i) { return i * s; }, [&, s] {
      copyStrided<<<grid, 256>>>(in.ptr, out.ptr, n, s);
      CHECK_LAUNCH("copyStrided");
    }));
  for (int k : offsets)
    runs.push_back(variant("offset_" + std::to_string(k), [k](size_t i) { return i + k; }, [&, k] {
      copyOffset<<<grid, 256>>>(in.ptr, out.ptr, n, k);
      CHECK_LAUNCH("copyOffset");
    }));
  runs.push_back(variant("vec4", [](size_t i) { return i; }, [&] {
    copyVec4<<<grid, 256>>>(in.ptr, out.ptr, n);
    CHECK_LAUNCH("copyVec4");
  }));

  PartResult res;
  res.sizeJson = "[" + std::to_string(n) + "]";
  res.note = "(GB/s = 8 bytes an output / median)";
  res.runs = std::move(runs);
  return res;
}

}  // namespace

SUITE_MAIN("copies", benchCopies)
