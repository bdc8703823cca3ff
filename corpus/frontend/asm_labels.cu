// Labels in inline asm: every call site of an asm loop repeats its labels, each copy inside
// the asm's own { } block, as hand-written Hopper kernels do for their mbarrier wait loops
// (DeepGEMM's and fast.cu's "LAB_WAIT: ... @!p bra LAB_WAIT;"). PTX scopes a label to its
// block, so each branch goes to its own copy; resolved function-wide, every loop would jump
// into the last copy (issue 14: 13 public Hopper launches deadlocked or read garbage).
//
// steps_to(start, limit, step): start + step * k for the first k >= 1 that reaches limit.
// labels_gather: two inlined calls with different steps decide which word each thread reads,
//   so the gather's sectors follow the loops' values.
__device__ __forceinline__ int steps_to(int start, int limit, int step) {
  int r;
  asm volatile("{\n\t.reg .pred p;\n\tmov.s32 %0, %1;\nLOOP:\n\tadd.s32 %0, %0, %3;\n"
               "\tsetp.lt.s32 p, %0, %2;\n\t@p bra.uni LOOP;\n}\n"
               : "=r"(r) : "r"(start), "r"(limit), "r"(step));
  return r;
}

__global__ void labels_gather(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int lane = threadIdx.x & 31;
  int a = steps_to(lane, 64 + 2 * lane, 3);   // lane + 3k reaching 64 + 2 * lane
  int b = steps_to(0, lane * lane, 7);        // 7k reaching lane^2
  out[i] = in[(i / 32 * 32 + a * 5 + b) % n];
}
