// pairs.cu: each thread reads two adjacent floats with two loads (lanes 8 bytes apart, so
// each load moves twice the sectors it needs). `warpscope fix` must name both loads by source
// position and SASS (not "pc 30") when it suggests one 8-byte load, and the kernel re-run with
// the change must show its sectors (src/cli/fix_advice_test.cc).
// nvcc -arch=sm_90 -lineinfo -ptx pairs.cu
extern "C" __global__ void pairs(float* out, const float* in) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const float a = in[2 * i];
  const float b = in[2 * i + 1];
  out[i] = a + b;
}
