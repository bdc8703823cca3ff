// Reductions: shared-memory tree, warp shuffle, and a dynamic-shared variant.
__device__ __forceinline__ float warp_sum(float v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  return v;
}
extern "C" __global__ void reduce_shared(const float* in, float* out, int n) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
extern "C" __global__ void reduce_shfl(const float* in, float* out, int n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  v = warp_sum(v);
  if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
extern "C" __global__ void reduce_dyn(const int* in, long long* out, int n) {
  extern __shared__ long long sd[];
  unsigned t = threadIdx.x;
  long long acc = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x) acc += in[i];
  sd[t] = acc;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) sd[t] += sd[t + stride];
    __syncthreads();
  }
  if (t == 0) atomicAdd((unsigned long long*)out, (unsigned long long)sd[0]);
}
