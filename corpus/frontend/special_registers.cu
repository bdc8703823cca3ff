// Probes of PTX special registers: each thread stores what it reads, so a run on the
// H200 (ptxlaunch --dump) gives the values warpscope has to define (emu/
// special_registers.h): %nwarpid, %nsmid, %gridid, %envreg*, the shared-memory sizes and
// where the driver's reserved shared memory sits. The stores themselves are plain
// coalesced figures: thread t writes kRegs u64 at out + 8 * kRegs * t.
//   sreg_probe           grid (3,2) of (64,2) threads, 1000 bytes of dynamic shared memory
//                        next to a static 100-byte array; out: 6 * 128 * kRegs u64
//   sreg_cluster_probe   __cluster_dims__(2,1,1), grid 4 of 64: the cluster registers of
//                        an explicit cluster launch; out: 4 * 64 * 8 u64
//   cg_tile_reduce<64>, <128>, <256>
//                        cooperative groups' reduce over tiles of 2, 4 and 8 warps: their
//                        scratch (barriers, one u64 per warp) lives in the reserved shared
//                        memory (%reserved_smem_offset_1); grid 64 of 256, in: 16384 int,
//                        out: 64 * (256 / N) int
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>

namespace cg = cooperative_groups;

constexpr int kRegs = 40;

#define SREG32(name, slot) \
  { unsigned v; asm volatile("mov.u32 %0, %%" name ";" : "=r"(v)); o[slot] = v; }
#define SREG64(name, slot) \
  { unsigned long long v; asm volatile("mov.u64 %0, %%" name ";" : "=l"(v)); o[slot] = v; }

extern "C" __global__ void sreg_probe(unsigned long long* out) {
  __shared__ unsigned char small[100];
  extern __shared__ unsigned char dyn[];
  const unsigned t = (blockIdx.y * gridDim.x + blockIdx.x) * (blockDim.x * blockDim.y) + threadIdx.y * blockDim.x +
                     threadIdx.x;
  unsigned long long* o = out + (unsigned long long)kRegs * t;
  small[threadIdx.x] = 1;  // the static array is used, so ptxas keeps it
  dyn[threadIdx.x] = 2;
  SREG32("laneid", 0) SREG32("warpid", 1) SREG32("nwarpid", 2) SREG32("smid", 3) SREG32("nsmid", 4)
  SREG64("gridid", 5) SREG32("lanemask_lt", 6) SREG32("lanemask_ge", 7)
  SREG32("total_smem_size", 8) SREG32("aggr_smem_size", 9) SREG32("dynamic_smem_size", 10)
  SREG32("reserved_smem_offset_begin", 11) SREG32("reserved_smem_offset_end", 12)
  SREG32("reserved_smem_offset_cap", 13) SREG32("reserved_smem_offset_0", 14) SREG32("reserved_smem_offset_1", 15)
  SREG32("envreg0", 16) SREG32("envreg1", 17) SREG32("envreg2", 18) SREG32("envreg3", 19)
  SREG32("envreg4", 20) SREG32("envreg5", 21) SREG32("envreg6", 22) SREG32("envreg7", 23)
  SREG32("cluster_ctarank", 24) SREG32("cluster_nctarank", 25) SREG32("clusterid.x", 26)
  SREG32("nclusterid.x", 27) SREG32("cluster_ctaid.x", 28) SREG32("cluster_nctaid.x", 29)
  { unsigned v; asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(v));
    o[30] = v; }
  SREG64("current_graph_exec", 31) SREG32("pm0", 32) SREG64("pm0_64", 33)
  SREG64("clock64", 34) SREG64("globaltimer", 35)
  // Where the kernel's own shared memory and cooperative groups' scratch sit.
  o[36] = (unsigned)__cvta_generic_to_shared(small);
  o[37] = (unsigned)__cvta_generic_to_shared(dyn);
  o[38] = (unsigned long long)(void*)small;  // the generic address: where the shared window is
  o[39] = small[threadIdx.x ^ 1] + dyn[threadIdx.x ^ 1];
}

extern "C" __global__ void __cluster_dims__(2, 1, 1) sreg_cluster_probe(unsigned long long* out) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned long long* o = out + 8ull * t;
  SREG32("cluster_ctarank", 0) SREG32("cluster_nctarank", 1) SREG32("clusterid.x", 2) SREG32("nclusterid.x", 3)
  SREG32("cluster_ctaid.x", 4) SREG32("cluster_nctaid.x", 5)
  { unsigned v; asm volatile("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }" : "=r"(v));
    o[6] = v; }
  SREG32("aggr_smem_size", 7)
}

template <int N>
__device__ void tile_reduce(int* out, const int* in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<N> tile = cg::tiled_partition<N>(block);
  const int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  const int sum = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) out[blockIdx.x * (blockDim.x / N) + tile.meta_group_rank()] = sum;
}

extern "C" __global__ void cg_tile_reduce_64(int* out, const int* in) { tile_reduce<64>(out, in); }
extern "C" __global__ void cg_tile_reduce_128(int* out, const int* in) { tile_reduce<128>(out, in); }
extern "C" __global__ void cg_tile_reduce_256(int* out, const int* in) { tile_reduce<256>(out, in); }
