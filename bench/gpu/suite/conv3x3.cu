// conv3x3.cu: 3x3 convolution of an 8192 x 8192 fp32 image (zero outside the image), filter in
// constant memory. Ceiling in the same run: cudaMemcpy device-to-device of the same bytes
// (one read and one write of the image). Variants: naive (nine global loads per output, left to
// the caches), shared tile (block 32 x 8 stages its (8 + 2) x (32 + 2) input halo), and a
// taller shared tile (each thread computes ROWS outputs down a column: less halo per output).
// Each is checked against a CPU convolution on poisoned output at 8192 x 8192 and 1000 x 1003.
// GB/s counts one read and one write of the image.
#include "common.cuh"

namespace {
using namespace suite;

__constant__ float kFilter[9];

__device__ __forceinline__ float at(const float* __restrict__ in, int H, int W, int y, int x) {
  return y >= 0 && y < H && x >= 0 && x < W ? in[size_t(y) * W + x] : 0.0f;
}

__global__ void convNaive(const float* __restrict__ in, float* __restrict__ out, int H, int W) {
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  if (x >= W || y >= H) return;
  float acc = 0;
#pragma unroll
  for (int dy = -1; dy <= 1; ++dy)
#pragma unroll
    for (int dx = -1; dx <= 1; ++dx) acc += kFilter[(dy + 1) * 3 + dx + 1] * at(in, H, W, y + dy, x + dx);
  out[size_t(y) * W + x] = acc;
}

// Block (32, 8); each thread computes ROWS outputs at rows ty, ty + 8, ... of a 32 x (8 ROWS)
// output tile whose (8 ROWS + 2) x 34 input halo is staged in shared memory first.
template <int ROWS>
__global__ void __launch_bounds__(256)
    convShared(const float* __restrict__ in, float* __restrict__ out, int H, int W) {
  constexpr int TH = 8 * ROWS, TW = 32;
  __shared__ float tile[TH + 2][TW + 2];
  const int x0 = blockIdx.x * TW, y0 = blockIdx.y * TH;
  const int tid = threadIdx.y * 32 + threadIdx.x;
  for (int e = tid; e < (TH + 2) * (TW + 2); e += 256) {
    int ty = e / (TW + 2), tx = e % (TW + 2);
    tile[ty][tx] = at(in, H, W, y0 + ty - 1, x0 + tx - 1);
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
#pragma unroll
  for (int i = 0; i < ROWS; ++i) {
    const int ly = threadIdx.y + 8 * i, y = y0 + ly;
    if (x >= W || y >= H) continue;
    float acc = 0;
#pragma unroll
    for (int dy = 0; dy < 3; ++dy)
#pragma unroll
      for (int dx = 0; dx < 3; ++dx) acc += kFilter[dy * 3 + dx] * tile[ly + dy][threadIdx.x + dx];
    out[size_t(y) * W + x] = acc;
  }
}

using ConvFn = std::function<void(const float*, float*, int, int)>;

template <int ROWS>
void launchShared(const float* in, float* out, int H, int W) {
  convShared<ROWS><<<dim3((W + 31) / 32, (H + 8 * ROWS - 1) / (8 * ROWS)), dim3(32, 8)>>>(in, out, H, W);
  CHECK_LAUNCH("convShared");
}

struct ConvCase {
  int H, W;
  DeviceBuffer<float> in, out;
  std::vector<float> want, mag;  // the CPU result and the sum of |f * x| (for the tolerance)
  ConvCase(int h, int w, uint64_t seed, const float* f) : H(h), W(w), in(size_t(h) * w), out(size_t(h) * w) {
    fillRandom(in.ptr, in.count, seed, -1.0, 1.0);
    std::vector<float> x = in.download();
    want.resize(x.size());
    mag.resize(x.size());
    for (int y = 0; y < H; ++y)
      for (int xx = 0; xx < W; ++xx) {
        double acc = 0, m = 0;
        for (int dy = -1; dy <= 1; ++dy)
          for (int dx = -1; dx <= 1; ++dx) {
            int yy = y + dy, xc = xx + dx;
            if (yy < 0 || yy >= H || xc < 0 || xc >= W) continue;
            double p = double(f[(dy + 1) * 3 + dx + 1]) * x[size_t(yy) * W + xc];
            acc += p;
            m += std::fabs(p);
          }
        want[size_t(y) * W + xx] = float(acc);
        mag[size_t(y) * W + xx] = float(m);
      }
  }
  void verify(const ConvFn& fn) {
    out.poison(kNanBytes);
    fn(in.ptr, out.ptr, H, W);
    CHECK(cudaDeviceSynchronize());
    std::vector<float> got = out.download();
    for (size_t i = 0; i < got.size(); ++i)
      if (!(std::fabs(double(got[i]) - want[i]) <= 1e-6 * mag[i] + 1e-6))
        fail("%dx%d: out[%zu][%zu] = %.9g, want %.9g", H, W, i / W, i % W, double(got[i]),
             double(want[i]));
  }
};

PartResult benchConv(Context& ctx) {
  const int S = 8192;
  const double bytes = 2.0 * S * S * sizeof(float);
  std::vector<Run> runs;
  runs.push_back(measureCopy(ctx, size_t(S) * S * sizeof(float)));

  float f[9];
  for (int k = 0; k < 9; ++k) f[k] = float(double(randomBits(ctx.nextSeed(), k) >> 40) * 0x1p-24 - 0.5);
  CHECK(cudaMemcpyToSymbol(kFilter, f, sizeof f));
  ConvCase big(S, S, ctx.nextSeed(), f), odd(1000, 1003, ctx.nextSeed(), f);
  auto variant = [&](const std::string& name, const ConvFn& fn) {
    return measure(
        ctx, name, bytes,
        [&] {
          big.verify(fn);
          odd.verify(fn);
        },
        [&] { fn(big.in.ptr, big.out.ptr, S, S); });
  };
  runs.push_back(variant("naive", [](const float* in, float* out, int H, int W) {
    convNaive<<<dim3((W + 31) / 32, (H + 7) / 8), dim3(32, 8)>>>(in, out, H, W);
    CHECK_LAUNCH("convNaive");
  }));
  runs.push_back(variant("shared_tile", launchShared<1>));
  runs.push_back(variant("shared_tile_rows4", launchShared<4>));
  runs.push_back(variant("shared_tile_rows8", launchShared<8>));

  PartResult res;
  res.sizeJson = "[8192, 8192]";
  res.note = "(3x3, zero border; GB/s = 2 x 256 MiB / median)";
  res.runs = std::move(runs);
  return res;
}

}  // namespace

SUITE_MAIN("conv3x3", benchConv)
