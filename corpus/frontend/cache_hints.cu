// Cache-control forms nvcc 13 emits for sm_90, none of which changes an address: each
// kernel's figures must equal those of the same accesses without the hints.
//   ld_intrinsics   __ldg (ld.global.nc), __ldca/__ldcg/__ldcs/__ldlu/__ldcv, one
//                   load each, 4-byte unit stride: 4 sectors per request
//   st_intrinsics   __stwb/__stcg/__stcs/__stwt: four stores, unit stride
//   annotated       cuda::annotated_ptr with access_property::streaming / persisting
//                   (createpolicy + ld/st .L2::cache_hint with a policy operand)
//   hints_asm       prefetch.global.L2::evict_last, prefetchu.L1, prefetch (generic, local),
//                   discard.global.L2, applypriority, createpolicy.range, ld with
//                   .L1::no_allocate and .L2::256B, griddepcontrol.wait/launch_dependents
// Grid n / 256 of 256 threads, n = 65536 floats: every buffer holds n floats.
#include <cuda/annotated_ptr>

extern "C" __global__ void ld_intrinsics(float* out, const float* in) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = __ldg(in + i);
  s += __ldca(in + i);
  s += __ldcg(in + i);
  s += __ldcs(in + i);
  s += __ldlu(in + i);
  s += __ldcv(in + i);
  out[i] = s;
}

extern "C" __global__ void st_intrinsics(float* a, float* b, float* c, float* d) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __stwb(a + i, 1.0f);
  __stcg(b + i, 2.0f);
  __stcs(c + i, 3.0f);
  __stwt(d + i, 4.0f);
}

extern "C" __global__ void annotated(float* out, const float* in, int n) {
  cuda::annotated_ptr<const float, cuda::access_property::streaming> src(in);
  cuda::annotated_ptr<float, cuda::access_property::persisting> dst(out);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i] * 2.0f;
}

extern "C" __global__ void hints_asm(float* out, const float* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  __shared__ float tile[256];
  const float* p = in + i;
  unsigned long long policy;
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("prefetch.global.L2::evict_last [%0];" ::"l"(p));
  asm volatile("prefetchu.L1 [%0];" ::"l"(p));
  asm volatile("prefetch.global.L1 [%0];" ::"l"(p));
  asm volatile("prefetch.global.L2 [%0];" ::"l"(p));
  asm volatile("prefetch.L1 [%0];" ::"l"(p));
  asm volatile("{ .local .align 4 .b8 spot[4]; .reg .u64 a; mov.u64 a, spot; prefetch.local.L2 [a]; }");
  asm volatile("createpolicy.range.L2::evict_last.L2::evict_unchanged.b64 %0, [%1], 256, 1024;"
               : "=l"(policy) : "l"(p));
  float v;
  asm volatile("ld.global.L1::no_allocate.L2::256B.f32 %0, [%1];" : "=f"(v) : "l"(p));
  float w;
  asm volatile("ld.global.L2::cache_hint.f32 %0, [%1], %2;" : "=f"(w) : "l"(p), "l"(policy));
  asm volatile("applypriority.global.L2::evict_normal [%0], 128;" ::"l"(out + (i & ~31)));
  tile[threadIdx.x] = v + w;
  __syncthreads();
  float x = tile[threadIdx.x ^ 1];
  asm volatile("st.global.L1::no_allocate.f32 [%0], %1;" ::"l"(out + i), "f"(x));
  asm volatile("griddepcontrol.launch_dependents;");
  if (i == 0) asm volatile("discard.global.L2 [%0], 128;" ::"l"(in + n - 32));
}
