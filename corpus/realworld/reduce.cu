// Reductions in the styles found in samples and libraries. n = 262144 floats (1 MiB)
// unless said.
//
// reduce_unrolled_warp<256>: two elements per thread added while loading, a shared tree
//   down to 64, then the last warp unrolled through a volatile pointer (no barriers), one
//   partial per block. Grid 512 (2 * 256 elements per block).
// reduce_gridstride_shfl: grid-stride accumulation, __shfl_down_sync within warps, warp
//   partials in shared memory, the first warp reduces them; atomicAdd(float) of each block's
//   sum into one global float (RED.ADD.F32). Grid 128 x 256.
// reduce_cg_reduce: cooperative groups: thread_block_tile<32> from tiled_partition,
//   cg::reduce(tile, v, cg::plus<float>()), tile leaders in shared memory. Grid 256 x 512,
//   two floats per thread.
// reduce_tile_shfl: the same through tile.shfl_down by hand, block of 128, four loads per
//   thread as one float4. Grid 512.
// reduce_f64_shared: doubles, sequential addressing in shared memory (8-byte words: half-warp
//   lane groups). n = 131072 doubles, grid 256 x 256, two per thread.
// reduce_max_int_atomic: integer maximum, warp __reduce_max_sync (REDUX), then atomicMax on a
//   global int per warp. n = 262144 ints, grid 256 x 256, grid-stride.
// reduce_cg_grid_stride: cooperative groups, grid-stride with cg::this_grid().thread_rank()
//   and num_threads(), block-wide reduce via cg::reduce on tiles then atomicAdd. Grid 64 x 1024.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <unsigned BLOCK>
__global__ void reduce_unrolled_warp(float* partial, const float* in) {
  __shared__ float s[BLOCK];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * (2 * BLOCK) + t;
  s[t] = in[i] + in[i + BLOCK];
  __syncthreads();
  for (unsigned half = BLOCK / 2; half > 32; half >>= 1) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();
  }
  if (t < 32) {
    volatile float* v = s;
    v[t] += v[t + 32];
    v[t] += v[t + 16];
    v[t] += v[t + 8];
    v[t] += v[t + 4];
    v[t] += v[t + 2];
    v[t] += v[t + 1];
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}
template __global__ void reduce_unrolled_warp<256>(float*, const float*);

extern "C" __global__ void reduce_gridstride_shfl(float* total, const float* in, int n) {
  __shared__ float warp_sums[32];
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  if (lane == 0) warp_sums[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d);
    if (lane == 0) atomicAdd(total, v);
  }
}

extern "C" __global__ void reduce_cg_reduce(float* partial, const float* in) {
  __shared__ float leaders[16];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const unsigned i = blockIdx.x * 1024 + threadIdx.x;
  float v = in[i] + in[i + 512];
  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0) leaders[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    float w = tile.thread_rank() < 16 ? leaders[tile.thread_rank()] : 0.0f;
    w = cg::reduce(tile, w, cg::plus<float>());
    if (tile.thread_rank() == 0) partial[blockIdx.x] = w;
  }
}

extern "C" __global__ void reduce_tile_shfl(float* partial, const float4* in) {
  __shared__ float leaders[4];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const float4 q = in[blockIdx.x * 128 + threadIdx.x];
  float v = (q.x + q.y) + (q.z + q.w);
  for (int d = tile.size() / 2; d > 0; d >>= 1) v += tile.shfl_down(v, d);
  if (tile.thread_rank() == 0) leaders[tile.meta_group_rank()] = v;
  block.sync();
  if (threadIdx.x == 0) partial[blockIdx.x] = leaders[0] + leaders[1] + leaders[2] + leaders[3];
}

extern "C" __global__ void reduce_f64_shared(double* partial, const double* in) {
  __shared__ double s[256];
  const unsigned t = threadIdx.x;
  const unsigned i = blockIdx.x * 512 + t;
  s[t] = in[i] + in[i + 256];
  __syncthreads();
  for (unsigned half = 128; half > 0; half >>= 1) {
    if (t < half) s[t] += s[t + half];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

extern "C" __global__ void reduce_max_int_atomic(int* result, const int* in, int n) {
  int m = -2147483647 - 1;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) m = max(m, in[i]);
  m = __reduce_max_sync(0xffffffffu, m);
  if ((threadIdx.x & 31) == 0) atomicMax(result, m);
}

extern "C" __global__ void reduce_cg_grid_stride(float* total, const float* in, unsigned long long n) {
  __shared__ float leaders[32];
  cg::grid_group grid = cg::this_grid();
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = 0.0f;
  for (unsigned long long i = grid.thread_rank(); i < n; i += grid.num_threads()) v += in[i];
  v = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0) leaders[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    float w = tile.thread_rank() < tile.meta_group_size() ? leaders[tile.thread_rank()] : 0.0f;
    w = cg::reduce(tile, w, cg::plus<float>());
    if (tile.thread_rank() == 0) atomicAdd(total, w);
  }
}
