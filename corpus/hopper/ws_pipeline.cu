// ws_pipeline.cu: a warp-specialized producer/consumer pipeline, as Hopper GEMMs and
// FlashAttention-3 build it: warp 0 of warpgroup 0 issues TMA loads into a ring of 4
// stages (full/empty mbarriers), warpgroups 1 and 2 consume them; each consumer
// warpgroup meets at a named barrier of its own (bar.sync 1+wg, 128) before one of its
// threads releases the stage, and both meet at bar.sync 3, 256 before the epilogue.
// Warps 1-3 of warpgroup 0 give registers back (setmaxnreg) and exit.
//
//   A: f16 [rows][64] (128-byte rows), a tensor map (tmap:) with box 64 x 64 and a
//      128-byte swizzle; each block reads kIters boxes: rows [block * 512, +512).
//   out: float [grid][256]: each consumer thread's sum of the halves it read.
//
// Launch: grid G, block 384, dynamic shared memory 4 * 8192 + 1024 (stages, 1024-byte
// aligned for the swizzle) + 64 (barriers). Compile: nvcc -arch=sm_90a -lineinfo -ptx
// (setmaxnreg needs sm_90a).
#include <cuda.h>
#include <cuda_fp16.h>

#include "hopper_ptx.cuh"

constexpr int kStages = 4;
constexpr int kIters = 8;
constexpr int kBoxRows = 64;
constexpr int kStageBytes = kBoxRows * 128;

extern "C" __global__ void __launch_bounds__(384) ws_pipeline(const __grid_constant__ CUtensorMap a, float* out) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  // The stages start at the first 1024-byte boundary (the swizzle repeats every 1024 B).
  unsigned char* stages = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  uint64_t* full = reinterpret_cast<uint64_t*>(stages + kStages * kStageBytes);
  uint64_t* empty = full + kStages;
  const int warpgroup = threadIdx.x / 128;
  const int warp = threadIdx.x / 32;

  if (threadIdx.x == 0) {
    for (int s = 0; s < kStages; ++s) {
      mbar_init(&full[s], 1);   // the producer's arrive.expect_tx
      mbar_init(&empty[s], 2);  // one arrival per consumer warpgroup
    }
    fence_mbarrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    if (warp != 0) {
      asm volatile("setmaxnreg.dec.sync.aligned.u32 40;");
      return;
    }
    prefetch_tensormap(&a);
    for (int k = 0; k < kIters; ++k) {
      const int s = k % kStages;
      mbar_wait(&empty[s], ((k / kStages) & 1) ^ 1);  // the first pass finds every stage free
      if (elect_one()) {
        mbar_arrive_expect_tx(&full[s], kStageBytes);
        tma_load_2d(stages + s * kStageBytes, &a, &full[s], 0, (blockIdx.x * kIters + k) * kBoxRows);
      }
      __syncwarp();
    }
    return;
  }

  asm volatile("setmaxnreg.inc.sync.aligned.u32 232;");
  const int t = threadIdx.x - 128 * warpgroup;  // 0..127 within the consumer warpgroup
  float acc = 0.f;
  for (int k = 0; k < kIters; ++k) {
    const int s = k % kStages;
    mbar_wait_hint(&full[s], (k / kStages) & 1);
    // This warpgroup's 32 rows of the stage, 16 bytes a thread, two passes; the 128-byte
    // swizzle puts chunk c of row r at chunk c ^ (r % 8).
    for (int pass = 0; pass < 2; ++pass) {
      const int row = 32 * (warpgroup - 1) + 16 * pass + t / 8;
      const int chunk = (t % 8) ^ (row % 8);
      const uint4 v = *reinterpret_cast<const uint4*>(stages + s * kStageBytes + row * 128 + chunk * 16);
      const __half2* h = reinterpret_cast<const __half2*>(&v);
      for (int i = 0; i < 4; ++i) acc += __low2float(h[i]) + __high2float(h[i]);
    }
    named_sync(1 + (warpgroup - 1), 128);  // the warpgroup is done with stage s
    if (t == 0) mbar_arrive(&empty[s]);
  }
  named_sync(3, 256);
  out[blockIdx.x * 256 + (threadIdx.x - 128)] = acc;
}
