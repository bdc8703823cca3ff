// scan_merges.cu: the loads Triton 3.6 emits for a block-wide scan's carry (FlagGems' cumsum,
// tl.cumsum over 4 warps): each warp's last lane stores its partial sum to global_smem, then
// every thread reads them back as ld.shared.v4 [global_smem], ld.shared.v2 [global_smem+16]
// and ld.shared [global_smem+24], which ptxas runs as two LDS.128 (the second over-reads a
// word), and later reads global_smem+0 once more after a store (one LDS). The PTX forms are
// written as inline asm on a symbol, as Triton writes them.
//   partial_sums   block 256 (8 warps), grid 128: an inclusive warp scan plus the partials
extern __shared__ __align__(16) float dsm[];

extern "C" __global__ void partial_sums(float* out, const float* x) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  for (int o = 1; o < 32; o <<= 1) {
    const float t = __shfl_up_sync(0xffffffffu, v, o);
    if (lane >= o) v += t;
  }
  if (lane == 31) dsm[warp] = v;
  __syncthreads();
  float a0, a1, a2, a3, b0, b1, c;
  asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [dsm];" : "=f"(a0), "=f"(a1), "=f"(a2), "=f"(a3));
  asm("ld.shared.v2.f32 {%0, %1}, [dsm+16];" : "=f"(b0), "=f"(b1));
  asm("ld.shared.f32 %0, [dsm+24];" : "=f"(c));
  const float parts[7] = {a0, a1, a2, a3, b0, b1, c};
  float base = 0.0f;
#pragma unroll
  for (int w = 0; w < 7; ++w)
    if (warp > w) base += parts[w];
  __syncthreads();
  if (threadIdx.x == 0) dsm[0] = base + v;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = v + base + dsm[0];
}
