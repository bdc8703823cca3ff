// Memory instructions whose lanes are switched off by a data-dependent predicate, down to
// warps where NO lane is on. ptxas turns each short `if (bit) ...` into one predicated
// instruction (@P STS / @P LDS / @P STG / @P LDG, checked in the SASS), which every warp
// issues whatever its lanes decide. The question these kernels isolate: does the H200 count
// a wavefront (shared) or a request (global) for an issued instruction with no active lane,
// and what does a partially active one cost? (Suspected cause of issue 13's ~12% on
// compare-and-swap networks and of the 0.2-0.7% on triangular-loop attention.)
//
// Lane l of warp w (global warp index) is on when bit l of masks[w % modes] is set; masks come
// from data/ through `file:`: masks_mixed.bin = {0, 0xffffffff, 0x1, 0x55555555} (modes 4:
// a quarter of the warps all off, a quarter all on, one lane, every other lane),
// masks_zero.bin = {0} (modes 1: every warp all off).
// Each kernel also does one unconditional access of the same kind, as a reference line.
// Grid 64 x 256 (512 warps).

extern "C" __global__ void pred_store_shared(unsigned* out, const unsigned* masks, int modes) {
  __shared__ unsigned s[256];
  const unsigned lane = threadIdx.x & 31;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned m = masks[warp % modes];
  s[threadIdx.x] = threadIdx.x;                               // every lane
  __syncwarp();
  if ((m >> lane) & 1u) s[threadIdx.x ^ 1u] = lane;           // @P STS
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}

// The compare-and-swap shape: two adjacent words swapped under one predicate (@P STS.64).
extern "C" __global__ void pred_swap_shared(unsigned* out, const unsigned* masks, int modes) {
  __shared__ unsigned s[512];
  const unsigned lane = threadIdx.x & 31;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned m = masks[warp % modes];
  s[2 * threadIdx.x] = threadIdx.x;
  s[2 * threadIdx.x + 1] = ~threadIdx.x;
  __syncthreads();
  const unsigned a = s[2 * threadIdx.x], b = s[2 * threadIdx.x + 1];
  if ((m >> lane) & 1u) {
    s[2 * threadIdx.x] = b;
    s[2 * threadIdx.x + 1] = a;
  }
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[2 * threadIdx.x] + s[2 * threadIdx.x + 1];
}

extern "C" __global__ void pred_load_shared(unsigned* out, const unsigned* masks, int modes) {
  __shared__ unsigned s[256];
  const unsigned lane = threadIdx.x & 31;
  const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
  const unsigned m = masks[warp % modes];
  s[threadIdx.x] = threadIdx.x * 3u;
  __syncthreads();
  unsigned v = 7u;
  if ((m >> lane) & 1u) v = s[(threadIdx.x * 5u) & 255u];     // @P LDS
  out[blockIdx.x * blockDim.x + threadIdx.x] = v;
}

extern "C" __global__ void pred_store_global(unsigned* out, unsigned* side, const unsigned* masks, int modes) {
  const unsigned lane = threadIdx.x & 31;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = masks[(i >> 5) % modes];
  if ((m >> lane) & 1u) side[i] = lane;                       // @P STG
  out[i] = i;                                                 // every lane, after it
}

extern "C" __global__ void pred_load_global(unsigned* out, const unsigned* in, const unsigned* masks, int modes) {
  const unsigned lane = threadIdx.x & 31;
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned m = masks[(i >> 5) % modes];
  unsigned v = in[i];                                         // every lane
  if ((m >> lane) & 1u) v += in[(i + 4096u) & 16383u];        // @P LDG
  out[i] = v;
}
