// rewrites.cu: accesses ptxas rewrites other than merging neighbours (SASS pricing, issue 13
// item 6). Block 256 unless said otherwise.
//
//   hoist_merge_lanes   a = s[2t+1] for every lane, b = s[2t] only for lanes t < k: ptxas hoists
//                       the conditional load and merges both into one LDS.64 that every lane
//                       runs (the PTX has two loads, the second under a branch).
//   hoist_merge_uniform the same with two scalars of shared memory (cuda-samples' mergeSort
//                       loads lenSrcA and, in a branch, startSrcA: one LDS.64 of both).
//   narrow_shared_u64   an ld.shared.u64 of which only 16 bits are used: LDS.U16.
//   narrow_global_u64   the same from global memory: LDG.E.U16 (same sectors, smaller ideal).
//   cse_global          two identical loads (inline asm, so nvcc keeps both): ptxas keeps one.
//   global_pairs        p[2i] and p[2i+1] from a kernel parameter: ptxas cannot prove 8-byte
//                       alignment and keeps two LDG (a control: no global merge from scalars).
extern "C" __global__ void hoist_merge_lanes(float* out, int k) {
  __shared__ float s[512];
  const int t = threadIdx.x;
  s[t] = t;
  s[t + 256] = t;
  __syncthreads();
  float a = s[2 * t + 1];
  float b = 0;
  if (t < k) b = s[2 * t];
  out[blockIdx.x * 256 + t] = a + b;
}

extern "C" __global__ void hoist_merge_uniform(float* out, int k) {
  __shared__ float first, second;
  const int t = threadIdx.x;
  if (t == 0) {  // values the compiler cannot know, or it folds the loads away
    first = 0.5f * k;
    second = 0.25f * k + blockIdx.x;
  }
  __syncthreads();
  float a = second;
  float b = 0;
  if (t < k) b = first;
  out[blockIdx.x * 256 + t] = a + b;
}

extern "C" __global__ void narrow_shared_u64(unsigned short* out) {
  __shared__ unsigned long long s[256];
  const int t = threadIdx.x;
  s[t] = t * 0x10001ull;
  __syncthreads();
  unsigned long long v;
  const unsigned a = static_cast<unsigned>(__cvta_generic_to_shared(&s[(t * 3) % 256]));
  asm("ld.shared.u64 %0, [%1];" : "=l"(v) : "r"(a));
  out[blockIdx.x * 256 + t] = static_cast<unsigned short>(v);
}

extern "C" __global__ void narrow_global_u64(const unsigned long long* p, unsigned short* out) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  unsigned long long v;
  asm("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p + i));
  out[i] = static_cast<unsigned short>(v);
}

extern "C" __global__ void cse_global(const float* p, float* out) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  float a, b;
  asm("ld.global.f32 %0, [%1];" : "=f"(a) : "l"(p + i));
  asm("ld.global.f32 %0, [%1];" : "=f"(b) : "l"(p + i));
  out[i] = a * b;
}

extern "C" __global__ void global_pairs(const float* __restrict__ p, float* out) {
  const int i = blockIdx.x * 256 + threadIdx.x;
  out[i] = p[2 * i] + p[2 * i + 1];
}
