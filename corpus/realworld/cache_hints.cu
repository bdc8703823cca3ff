// Loads and stores carrying cache-control forms, as compiler-generated and library kernels
// emit them (issue 13 item 5): none of them changes an address, so every figure equals the
// plain copy's. n = 262144 floats, grid 256 x 256 (one float per thread; the vector kernel
// 64 x 256, one float4 each).
//
// copy_evict_hints: ld.global.L1::no_allocate / L1::evict_last, st.global.L1::no_allocate,
//   an L2 access policy from createpolicy.fractional (evict_first for the stream read once,
//   evict_last for a reused table) passed to ld/st with .L2::cache_hint.
// copy_ldg_variants: __ldg (ld.global.nc), __ldcs / __ldlu / __ldcv and __stcs / __stwt /
//   __stcg, prefetch.global.L2 of the next block's line, and the PDL pair
//   cudaGridDependencySynchronize / cudaTriggerProgrammaticLaunchCompletion
//   (griddepcontrol.wait / .launch_dependents: no-ops for a single launch).
// copy_v4_hints: ld.global.nc.L1::no_allocate.L2::256B.v4.f32 (the 128-bit form PyTorch's
//   vectorized kernels use) and st.global.L1::no_allocate.v4.f32.

extern "C" __global__ void copy_evict_hints(float* out, const float* in, const float* table) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long stream_policy, table_policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(stream_policy));
  asm volatile("createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %0, 0.5;" : "=l"(table_policy));
  float x, t, u;
  asm volatile("ld.global.L1::no_allocate.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(x) : "l"(in + i), "l"(stream_policy));
  asm volatile("ld.global.L1::evict_last.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(t) : "l"(table + (i & 255)), "l"(table_policy));
  asm volatile("ld.global.L1::evict_first.f32 %0, [%1];" : "=f"(u) : "l"(in + (i ^ 1)));
  asm volatile("st.global.L1::no_allocate.L2::cache_hint.f32 [%0], %1, %2;" :: "l"(out + i), "f"(x * t + u), "l"(stream_policy) : "memory");
}

extern "C" __global__ void copy_ldg_variants(float* out, float* out2, const float* in) {
  cudaGridDependencySynchronize();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0 && blockIdx.x + 1 < gridDim.x) asm volatile("prefetch.global.L2 [%0];" :: "l"(in + i + blockDim.x));
  const float a = __ldg(in + i);
  const float b = __ldcs(in + (i ^ 32));
  const float c = __ldlu(in + (i ^ 64));
  const float d = __ldcv(in + (i ^ 96));
  __stcs(out + i, a + b);
  __stwt(out2 + i, c + d);
  __stcg(out + (i ^ 1), a - d);
  cudaTriggerProgrammaticLaunchCompletion();
}

extern "C" __global__ void copy_v4_hints(float4* out, const float4* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 v;
  asm volatile("ld.global.nc.L1::no_allocate.L2::256B.v4.f32 {%0, %1, %2, %3}, [%4];"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w) : "l"(in + i));
  asm volatile("st.global.L1::no_allocate.v4.f32 [%0], {%1, %2, %3, %4};"
               :: "l"(out + i), "f"(v.x * 2.0f), "f"(v.y), "f"(v.z), "f"(v.w) : "memory");
}
