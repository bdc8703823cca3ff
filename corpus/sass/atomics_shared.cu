// atomics_shared.cu: every shared-memory atomic form nvcc 13 emits for sm_90, one per line
// (issue 13 item 4). Lane l of a warp uses word l % 8 (4 lanes per word) unless the line says
// otherwise. What ptxas makes of each (read from the SASS):
//   add of 1, result unused           ATOMS.POPC.INC (same-address lanes merge)
//   other int ops on 32 bits          ATOMS.ADD/.MIN/.MAX/.INC/.AND/.CAS/.EXCH (lanes serialize)
//   cas, exch on 64 bits              ATOMS.CAS.64, ATOMS.EXCH.64
//   float add (f32, f64), 64-bit add, CAS loop: LDS + ATOMS.CAST.SPIN per round; one lane per
//   min/max/and/or/xor on 64 bits     word succeeds per round, so 4 lanes a word: 4 rounds
//   f16x2 add (generic address)       ATOM.ADD.F16x2 fails on shared, then the CAS loop
//   uniform address                   one elected lane (REDUX / popc), or lane 31 after a scan
// Launched with one warp per block (block 32: the CAS loops' rounds are the lanes' own, exact)
// and with 8 warps per block (block 256: other warps retry too, timing-dependent).
#include <cuda_fp16.h>

extern "C" __global__ void atom_shared_forms(int* out) {
  __shared__ int si[256];
  __shared__ unsigned su[256];
  __shared__ unsigned long long sl[256];
  __shared__ float sf[256];
  __shared__ double sd[256];
  __shared__ __half2 sh2[256];
  const int t = threadIdx.x, k = t % 8;
  for (int i = t; i < 256; i += blockDim.x) {
    si[i] = 0; su[i] = 0; sl[i] = 0; sf[i] = 0; sd[i] = 0; sh2[i] = __half2();
  }
  __syncthreads();
  int r = 0;
  atomicAdd(&si[k], 1);                                       // ATOMS.POPC.INC
  r += atomicAdd(&si[8 + k], 2);                              // ATOMS.ADD
  atomicAdd(&si[16 + k], 3);                                  // ATOMS.ADD, result unused
  r += atomicCAS(&si[24 + k], 0, t);                          // ATOMS.CAS
  r += atomicExch(&si[32 + k], t);                            // ATOMS.EXCH
  r += atomicMin(&si[40 + k], t);                             // ATOMS.MIN.S32
  r += atomicMax(&su[k], static_cast<unsigned>(t));           // ATOMS.MAX
  r += atomicInc(&su[8 + k], 100u);                           // ATOMS.INC
  r += atomicAnd(&si[48 + k], t);                             // ATOMS.AND
  r += static_cast<int>(atomicCAS(&sl[k], 0ull, 1ull));       // ATOMS.CAS.64
  r += static_cast<int>(atomicExch(&sl[8 + k], 1ull));        // ATOMS.EXCH.64
  r += static_cast<int>(atomicAdd(&sf[k], 1.0f));             // CAS loop, 4 bytes
  atomicAdd(&sf[8 + k], 1.0f);                                // CAS loop, result unused
  atomicAdd(&sf[t], 1.0f);                                    // CAS loop, every lane its own word: 1 round
  r += static_cast<int>(atomicAdd(&sd[k], 1.0));              // CAS loop, 8 bytes
  r += static_cast<int>(atomicAdd(&sl[16 + k], 3ull));        // CAS loop, 8 bytes (64-bit add)
  r += static_cast<int>(atomicMin(&sl[24 + k], static_cast<unsigned long long>(t)));  // CAS loop (64-bit min)
  atomicAdd(&sh2[k], __float2half2_rn(1.0f));                 // generic ATOM fails, CAS loop
  atomicMax(&su[64], static_cast<unsigned>(t));               // uniform, unused: REDUX.MAX, one lane
  r += atomicAdd(&si[64], t);                                 // uniform, used: scan, lane 31 (full warp)
  atomicAdd(&sl[64], 1ull);                                   // uniform 64-bit add: one lane's CAS loop
  __syncthreads();
  out[blockIdx.x * blockDim.x + t] = r + si[t % 64];
}
