// Atomic forms real code uses beyond 32-bit integer adds (issue 13 item 4). Which lanes and
// addresses take part never depends on buf: contents.
//
// accum_bf16x2: dweight += per-row gradients in bf16 pairs, atomicAdd(__nv_bfloat162*) on
//   global memory (red.global.add.noftz.bf16x2, result unused), as bf16 training kernels do:
//   256 rows x 768 channels, one pair per thread, rows split over blockIdx.y. Grid (2, 32)
//   x 192: each of the 32 row groups adds its 8 rows into the same 384 pairs.
// accum_half2: the same with __half2 (red.global.add.noftz.f16x2).
// accum_f64: double-precision accumulation, atomicAdd(double*) into 1024 sums (RED.E.ADD.F64).
// accum_float2 / accum_float4: sm_90's vector atomics, atomicAdd(float2*) / atomicAdd(float4*)
//   (red.global.v2.f32.add / .v4), 1024 float4 sums, 64 blocks each adding into all of them.
// lock_per_block: a spin lock the way kernels guard a read-modify-write of a partial row: one
//   lock word per block (never contended, so each acquire is one atomicCAS, the release one
//   atomicExch), the block's 256 threads update the row between __threadfence()s. The locks
//   start at 0 (data/zeros_1024.bin through file:). Grid 64 x 256.
// max_u64: atomicMax on 64-bit keys (value << 32 | index), one per warp after a warp
//   reduction; returns unused. n = 262144, grid 1024 x 256.
// ticket_atomic_inc: value-returning atomicAdd on a global counter by lane 0 of each warp
//   (ATOMG, op_atom), the ticket broadcast with a shuffle and used as an output slot.
//   Counter from data/zeros_1024.bin. Grid 64 x 256.

#include <cuda_bf16.h>
#include <cuda_fp16.h>

extern "C" __global__ void accum_bf16x2(__nv_bfloat162* dw, const __nv_bfloat162* grad, int rows_per_group,
                                        int pairs) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;  // pair index
  const int r0 = blockIdx.y * rows_per_group;
  for (int r = r0; r < r0 + rows_per_group; ++r) atomicAdd(&dw[c], grad[r * pairs + c]);
}

extern "C" __global__ void accum_half2(__half2* dw, const __half2* grad, int rows_per_group, int pairs) {
  const int c = blockIdx.x * blockDim.x + threadIdx.x;
  const int r0 = blockIdx.y * rows_per_group;
  for (int r = r0; r < r0 + rows_per_group; ++r) atomicAdd(&dw[c], grad[r * pairs + c]);
}

extern "C" __global__ void accum_f64(double* sums, const double* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&sums[i & 1023], x[i]);
}

extern "C" __global__ void accum_float2(float2* sums, const float2* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&sums[i & 1023], x[i]);
}

extern "C" __global__ void accum_float4(float4* sums, const float4* x) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&sums[i & 1023], x[i]);
}

extern "C" __global__ void lock_per_block(float* rows, int* locks, const float* delta) {
  __shared__ int dummy;
  if (threadIdx.x == 0) {
    while (atomicCAS(&locks[blockIdx.x], 0, 1) != 0) {
    }
    __threadfence();
    dummy = 0;
  }
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  rows[i] += delta[i];
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) atomicExch(&locks[blockIdx.x], dummy);
}

extern "C" __global__ void max_u64(unsigned long long* best, const unsigned* v) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long key = (static_cast<unsigned long long>(v[i]) << 32) | i;
  for (int d = 16; d > 0; d >>= 1) {
    const unsigned long long o = __shfl_xor_sync(0xffffffffu, key, d);
    key = o > key ? o : key;
  }
  if ((threadIdx.x & 31) == 0) atomicMax(best, key);
}

extern "C" __global__ void ticket_atomic_inc(unsigned* slots, unsigned* counter) {
  const unsigned lane = threadIdx.x & 31;
  unsigned ticket = 0;
  if (lane == 0) ticket = atomicAdd(counter, 1u);
  ticket = __shfl_sync(0xffffffffu, ticket, 0);
  // tickets are 0..511 in some order: each warp writes its own 32-slot row
  slots[(ticket & 511u) * 32 + lane] = blockIdx.x;
}
