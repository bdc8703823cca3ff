// A kernel with assert(): the emulator reports a failed assertion with its text and line.
#include <cassert>
extern "C" __global__ void checked_scale(float* x, int n) {
  assert(blockDim.x == 64);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= 2.f;
}
