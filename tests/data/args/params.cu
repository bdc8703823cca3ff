// params.cu: a kernel of every parameter kind the --arg grammar makes (8- and 16-bit
// integers, bool, half, bfloat16, a struct by value with a pointer in it), each value
// written to out[] as a double so a test can read them back (src/emu/arg_spec_test.cc).
// nvcc -arch=sm_90 -lineinfo -ptx params.cu
#include <cuda_bf16.h>
#include <cuda_fp16.h>

struct Params {
  int count;
  float scale;
  const double* data;
  short tag;
};

extern "C" __global__ void params(bool flag, signed char s8, unsigned char u8, short s16, unsigned short u16,
                                  __half h, __nv_bfloat16 bf, Params p, double* out) {
  if (threadIdx.x != 0) return;
  out[0] = flag;
  out[1] = s8;
  out[2] = u8;
  out[3] = s16;
  out[4] = u16;
  out[5] = __half2float(h);
  out[6] = __bfloat162float(bf);
  out[7] = p.count;
  out[8] = p.scale;
  out[9] = p.data[0] + p.data[p.count - 1];
  out[10] = p.tag;
}
