// forwarding.cu: shared-memory accesses ptxas removes or moves, which the PTX keeps.
//   forward_own_slot  each thread stores to its own shared slot and reads it back with no
//                     barrier between (ggml's soft_max_f32 keeps a row in shared memory this
//                     way when a warp is the block): ptxas forwards the stored values to the
//                     loads (no LDS) and keeps only the last of the two stores to the slot.
//   hoist_scalar      a shared scalar written by thread 0 before a barrier, read in every
//                     iteration of a loop that stores only to global memory and reads through
//                     __ldg, whose inline asm keeps nvcc from hoisting it (AutoAWQ's T5
//                     RMS norm, most layer norms): ptxas loads it once, before the loop.
//   hoist_scalar_2d   the same in a loop nested in another (the load stays in the outer
//                     loop, once per outer iteration).
// forward_own_slot: block 32, grid 512, rows of 32 floats. hoist_scalar: block 256, grid 64,
// n = 1000 (4 trips for most threads, 3 for the rest). hoist_scalar_2d: rows = 4 of n = 512.
extern "C" __global__ void forward_own_slot(float* out, const float* x) {
  extern __shared__ float vals[];  // one row of 32, a column per thread, as ggml's ncols = 32
  const int c = threadIdx.x;
  vals[c] = x[blockIdx.x * 32 + c];
  float m = vals[c];
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
  const float e = __expf(vals[c] - m);
  vals[c] = e;
  float sum = e;
  for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
  out[blockIdx.x * 32 + c] = vals[c] / sum;
}

extern "C" __global__ void hoist_scalar(float* out, const float* x, const float* w, int n) {
  __shared__ float s_scale;
  const float* row = x + blockIdx.x * n;
  if (threadIdx.x == 0) s_scale = 1.0f / (1.0f + fabsf(row[0]));
  __syncthreads();
  for (int i = threadIdx.x; i < n; i += blockDim.x) out[blockIdx.x * n + i] = row[i] * s_scale * __ldg(&w[i]);
}

extern "C" __global__ void hoist_scalar_2d(float* out, const float* x, int rows, int n) {
  __shared__ float s_scale[4];
  if (threadIdx.x < 4) s_scale[threadIdx.x] = 1.0f + x[blockIdx.x * rows * n + threadIdx.x];
  __syncthreads();
  for (int r = 0; r < rows; ++r)
    for (int i = threadIdx.x; i < n; i += blockDim.x)
      out[(blockIdx.x * rows + r) * n + i] = __ldg(&x[(blockIdx.x * rows + r) * n + i]) * s_scale[r & 3];
}
