// Packed 16-bit atomics of 16 bytes per lane, as Triton 3.6 emits for tl.atomic_add on fp16
// and bf16 tensors (red/atom .v8.f16 / .v8.bf16, one REDG/ATOMG .F16x8/.BF16x8 per lane on
// sm_90) and as hand-written kernels write with .v4.f16x2 / .v2.bf16x2. No CUDA intrinsic
// emits them, so they are inline asm here. Which lanes and addresses take part never depends
// on buf: contents.
//
// red_v8_f16: 64 blocks x 256 threads; thread t adds 8 halves of x into sums[(t % 128) * 8],
//   1024 halves (2 KiB) every block adds into, result unused (REDG.E.ADD.F16x8).
// atom_v8_bf16: the same in bf16 with the old values returned and stored (ATOMG.E.ADD.BF16x8),
//   masked as Triton masks: lanes past n (n = 16000 of 16384 threads) do nothing.
// red_v4_f16x2 / red_v2_bf16x2: 8 and 4 halves per lane through the packed types.
#include <cstdint>

extern "C" __global__ void red_v8_f16(std::uint16_t* sums, const uint4* x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint4 v = x[t];
  std::uint16_t* p = sums + (threadIdx.x % 128) * 8;
  asm volatile("red.global.add.noftz.v8.f16 [%0], {%1, %2, %3, %4, %5, %6, %7, %8};"
               :: "l"(p), "h"((unsigned short)v.x), "h"((unsigned short)(v.x >> 16)), "h"((unsigned short)v.y),
                  "h"((unsigned short)(v.y >> 16)), "h"((unsigned short)v.z), "h"((unsigned short)(v.z >> 16)),
                  "h"((unsigned short)v.w), "h"((unsigned short)(v.w >> 16))
               : "memory");
}

extern "C" __global__ void atom_v8_bf16(std::uint16_t* sums, const uint4* x, uint4* old, int n) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  const uint4 v = x[t];
  std::uint16_t* p = sums + (t % 256) * 8;
  unsigned short r[8];
  asm volatile("atom.global.acq_rel.gpu.add.noftz.v8.bf16 {%0, %1, %2, %3, %4, %5, %6, %7}, [%8], "
               "{%9, %10, %11, %12, %13, %14, %15, %16};"
               : "=h"(r[0]), "=h"(r[1]), "=h"(r[2]), "=h"(r[3]), "=h"(r[4]), "=h"(r[5]), "=h"(r[6]), "=h"(r[7])
               : "l"(p), "h"((unsigned short)v.x), "h"((unsigned short)(v.x >> 16)), "h"((unsigned short)v.y),
                 "h"((unsigned short)(v.y >> 16)), "h"((unsigned short)v.z), "h"((unsigned short)(v.z >> 16)),
                 "h"((unsigned short)v.w), "h"((unsigned short)(v.w >> 16))
               : "memory");
  old[t] = make_uint4(r[0] | unsigned(r[1]) << 16, r[2] | unsigned(r[3]) << 16, r[4] | unsigned(r[5]) << 16,
                      r[6] | unsigned(r[7]) << 16);
}

extern "C" __global__ void red_v4_f16x2(unsigned* sums, const uint4* x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint4 v = x[t];
  unsigned* p = sums + (threadIdx.x % 64) * 4;
  asm volatile("red.global.add.noftz.v4.f16x2 [%0], {%1, %2, %3, %4};" :: "l"(p), "r"(v.x), "r"(v.y), "r"(v.z),
               "r"(v.w) : "memory");
}

extern "C" __global__ void red_v2_bf16x2(unsigned* sums, const uint2* x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const uint2 v = x[t];
  unsigned* p = sums + (t % 512) * 2;
  asm volatile("red.global.add.noftz.v2.bf16x2 [%0], {%1, %2};" :: "l"(p), "r"(v.x), "r"(v.y) : "memory");
}
