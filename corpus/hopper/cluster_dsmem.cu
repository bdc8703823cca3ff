// cluster_dsmem.cu: a cluster of 2 blocks sharing memory (sm_90 distributed shared memory).
//
//   1. Each block fills its `mine` array (256 floats: rank * 1000 + i) and the cluster
//      meets at barrier.cluster (arrive + wait).
//   2. Each thread reads its partner block's `mine[t]` through mapa + ld.shared::cluster
//      and writes it to out[block][t]; then stores t into the partner's `theirs[t]`
//      (st.shared::cluster), and the cluster meets again.
//   3. Block 1 arrives on block 0's mbarrier (mbarrier.arrive.shared::cluster), block 0
//      waits for that phase: a remote arrival.
//   4. Block 0 loads one TMA box (map `in`, u32, 32 x 8, no swizzle) multicast to both
//      blocks (ctaMask 0b11); each block has expected the bytes on its own mbarrier, waits,
//      and checks its copy: a wrong element is stored to `bad` (MISMATCH: 0 requests on
//      the H200). The tensor holds y * width + x + 1 (data/iota_64x64.bin, width 64).
//   5. A last cluster barrier, so that no block exits while its partner may still read
//      its shared memory.
//
// Launch: grid (2 * N), block 256, clusters of 2 (__cluster_dims__: .reqnctapercluster).
// Compile: nvcc -arch=sm_90a -lineinfo -ptx (multicast wants sm_90a).
// Parameters: in (tmap), out (float [grid][256]), back (u32 [grid][256]: what the partner
// stored into `theirs`), bad (u32 [grid][256]).
#include <cuda.h>

#include "hopper_ptx.cuh"

extern "C" __global__ void __cluster_dims__(2, 1, 1) __launch_bounds__(256)
    cluster_dsmem(const __grid_constant__ CUtensorMap in, float* out, unsigned* back, unsigned* bad) {
  __shared__ float mine[256];
  __shared__ unsigned theirs[256];
  __shared__ __align__(128) unsigned box[32 * 8];
  __shared__ uint64_t remote, loaded;
  const unsigned rank = cluster_rank(), partner = rank ^ 1u, t = threadIdx.x;
  mine[t] = static_cast<float>(rank * 1000 + t);
  if (t == 0) {
    mbar_init(&remote, 1);
    mbar_init(&loaded, 1);
    fence_mbarrier_init();
  }
  cluster_sync();

  out[blockIdx.x * 256 + t] = ld_dsmem_f32(map_to_rank(&mine[t], partner));
  asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(map_to_rank(&theirs[t], partner)), "r"(t) : "memory");
  cluster_sync();
  back[blockIdx.x * 256 + t] = theirs[t];

  if (rank == 1 && t == 0) mbar_arrive_remote(map_to_rank(&remote, 0));
  if (rank == 0) mbar_wait(&remote, 0);

  if (t == 0) mbar_arrive_expect_tx(&loaded, sizeof(box));
  cluster_sync();  // both blocks expect the bytes before the multicast can complete them
  const int y0 = (blockIdx.x / 2) * 8;
  if (rank == 0 && t == 0)
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
        " [%0], [%1, {%3, %4}], [%2], %5;" ::"r"(smem_u32(box)),
        "l"(&in), "r"(smem_u32(&loaded)), "r"(0), "r"(y0), "h"(static_cast<unsigned short>(3))
        : "memory");
  mbar_wait(&loaded, 0);
  const unsigned expected = (y0 + t / 32) * 64 + t % 32 + 1;
  if (box[t] != expected) bad[blockIdx.x * 256 + t] = box[t];  // MISMATCH: 0 requests on the H200
  cluster_sync();
}
