// bulk_copy.cu: the non-tensor bulk copies: one thread of each block loads `bytes` of
// `in` into shared memory with cp.async.bulk (mbarrier::complete_tx::bytes), the block
// adds 1 to every float (ld/st.shared), and one thread writes them back with
// cp.async.bulk (bulk_group) to `out` and adds them to `sum` with cp.reduce.async.bulk
// .add.f32; it also prefetches the next block's range into L2 (cp.async.bulk.prefetch).
// `offset` (a multiple of 16) shifts every range, so that it can start mid-sector.
//
//   in, out, sum: float [grid * bytes / 4 + offset / 4]
// Launch: grid G, block 256, dynamic shared memory bytes + 16. Parameters: in, out, sum,
// bytes (a multiple of 16, at most 48 KiB), offset.
#include "hopper_ptx.cuh"

extern "C" __global__ void bulk_copy(const float* in, float* out, float* sum, int bytes, int offset) {
  extern __shared__ __align__(128) unsigned char smem[];
  float* data = reinterpret_cast<float*>(smem);
  uint64_t* bar = reinterpret_cast<uint64_t*>(smem + bytes);
  const size_t first = (static_cast<size_t>(blockIdx.x) * bytes + offset) / 4;
  if (threadIdx.x == 0) {
    mbar_init(bar, 1);
    fence_mbarrier_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_arrive_expect_tx(bar, bytes);
    bulk_load(data, in + first, bytes, bar);
    if (blockIdx.x + 1 < gridDim.x)
      asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(in + first + bytes / 4), "r"(bytes) : "memory");
  }
  mbar_wait(bar, 0);
  for (int i = threadIdx.x; i < bytes / 4; i += blockDim.x) data[i] += 1.f;
  fence_proxy_async();
  __syncthreads();
  if (threadIdx.x == 0) {
    bulk_store(out + first, data, bytes);
    bulk_reduce_add_f32(sum + first, data, bytes);
    bulk_commit();
    bulk_wait0();
  }
}
