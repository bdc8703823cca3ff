// Grid-wide barriers: the kernels a cooperative launch (cudaLaunchCooperativeKernel) runs,
// where every block is resident at once and blocks wait on each other.
//
// grid_sync_normalize: cooperative_groups::this_grid().sync() between three phases (the
//   driver's grid workspace comes through %envreg1/2, so the launch is cooperative without
//   being told). 1: a grid-stride sum of n floats, reduced per block in shared memory
//   (256 threads, a tree of halving strides), one partial per block; sync; 2: block 0 sums
//   the partials; sync; 3: every thread divides its elements by the total (each reads the
//   one word out[0]). n = 262144, grid 132 (one block per SM), block 256.
// grid_sync_jacobi: 4 Jacobi sweeps of a 1-D 3-point stencil over n floats, ping-ponging
//   between two buffers with grid.sync() after each sweep (the halo reads cross blocks).
//   n = 131072, grid 132 x 256 threads, grid-stride.
// grid_barrier_handrolled: the barrier written by hand, as older code does: thread 0 of each
//   block adds 1 to a global counter and spins on a volatile read until it reaches the grid's
//   size times the phase (the counter starts at 0: file:data/zeros_1024.bin). It reads no
//   workspace, so it needs --cooperative to be launched so (blocks must be resident to meet).
//   Two phases of a block-transposed copy: a[i] -> b[perm(i)], barrier, b -> c.
//   n = 65536, grid 64 x 256.
// The spin loops' trip counts depend on timing between blocks on the GPU; every other figure
// does not.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__device__ float block_sum(float v, float* s) {
  s[threadIdx.x] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  float r = s[0];
  __syncthreads();
  return r;
}

extern "C" __global__ void grid_sync_normalize(const float* in, float* partial, float* out, int n) {
  cg::grid_group grid = cg::this_grid();
  __shared__ float s[256];
  float v = 0.f;
  for (int i = grid.thread_rank(); i < n; i += grid.size()) v += in[i];
  float b = block_sum(v, s);
  if (threadIdx.x == 0) partial[blockIdx.x] = b;
  grid.sync();
  if (blockIdx.x == 0) {
    float t = 0.f;
    for (int k = threadIdx.x; k < gridDim.x; k += blockDim.x) t += partial[k];
    t = block_sum(t, s);
    if (threadIdx.x == 0) out[0] = t;
  }
  grid.sync();
  const float total = out[0];
  for (int i = grid.thread_rank(); i < n; i += grid.size()) out[1 + i] = in[i] / total;
}

extern "C" __global__ void grid_sync_jacobi(float* a, float* b, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int sweep = 0; sweep < 4; ++sweep) {
    for (int i = grid.thread_rank(); i < n; i += grid.size()) {
      float l = i > 0 ? a[i - 1] : 0.f, r = i + 1 < n ? a[i + 1] : 0.f;
      b[i] = 0.25f * l + 0.5f * a[i] + 0.25f * r;
    }
    grid.sync();
    float* t = a;
    a = b;
    b = t;
  }
}

__device__ void handrolled_barrier(unsigned* counter, unsigned phase) {
  __syncthreads();
  if (threadIdx.x == 0) {
    __threadfence();
    atomicAdd(counter, 1u);
    while (*(volatile unsigned*)counter < phase * gridDim.x) {
    }
    __threadfence();
  }
  __syncthreads();
}

extern "C" __global__ void grid_barrier_handrolled(const float* a, float* b, float* c, unsigned* counter, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // perm: the block's 256 elements as a 16 x 16 tile, transposed.
  const int base = blockIdx.x * blockDim.x, t = threadIdx.x, p = base + (t % 16) * 16 + t / 16;
  if (i < n) b[p] = a[i];
  handrolled_barrier(counter, 1);
  const int j = (i + blockDim.x) % n;  // the next block's elements: written by another block
  if (i < n) c[i] = b[j];
}
