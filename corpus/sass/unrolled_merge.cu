// unrolled_merge.cu: a loop that ptxas unrolls further than nvcc and whose loads it merges
// across iterations into wider ones (llm.c softmax_forward_kernel4's reduction over its warps'
// partial maxima has this shape): thread 0 of each block reduces s[1..n-1] after s[0], one word
// past a 16-byte boundary, n known only at run time.
//   max_from_one   out[block] = max(s[0..n-1]), s[i] = in[block * n + i]
// Block 256, grid 16, n = 8 (7 iterations: one by-4 PTX iteration and 3 more) or 64 (63: 15
// by-4 iterations and 3 more).
extern "C" __global__ void max_from_one(float* out, const float* in, int n) {
  extern __shared__ float s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x) s[i] = in[blockIdx.x * n + i];
  __syncthreads();
  if (threadIdx.x == 0) {
    float v = s[0];
    for (int i = 1; i < n; ++i) v = fmaxf(v, s[i]);
    out[blockIdx.x] = v;
  }
}
