// half_compare.cu: comparisons of packed halves deciding a gather's addresses (attorch's
// hardswish backward compares fp16 pairs: Triton emits setp.lt.f16x2 p|q, a, b, the low halves'
// result in p and the high halves' in q; CUDA's __hlt2_mask emits set.lt.u32.f16x2).
//   half2_compare_gather   block 256, grid 64: x holds 16384 pairs (rand: in [-2, 2)); each
//                          thread reads table at a row its pair's comparisons with {-0.5, 0.5} pick
#include <cuda_fp16.h>

extern "C" __global__ void half2_compare_gather(float* out, const float* table, const __half2* x) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const __half2 v = x[t];
  const unsigned bits = *reinterpret_cast<const unsigned*>(&v);
  const unsigned bound = 0x3800b800u;  // {-0.5 low, 0.5 high}
  unsigned lo, hi, mask;
  asm("{\n\t.reg .pred p, q;\n\tsetp.lt.f16x2 p|q, %3, %4;\n\tselp.u32 %0, 1, 0, p;\n\tselp.u32 %1, 2, 0, q;\n\t"
      "set.ge.u32.f16x2 %2, %3, %4;\n\t}"
      : "=r"(lo), "=r"(hi), "=r"(mask) : "r"(bits), "r"(bound));
  const unsigned row = lo + hi + ((mask >> 15) & 4u) + ((mask >> 28) & 8u);  // 0..15
  out[t] = table[row * 1024 + (t % 1024)];
}
