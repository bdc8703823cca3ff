// Misaligned copy (NVIDIA blog "How to Access Global Memory Efficiently"):
// thread i copies element i + offset. Buffers from cudaMalloc are 256-byte
// aligned, so with offset 0 a warp's 128 bytes are 4 aligned sectors; with an
// offset that is not a multiple of 8 floats the 128 bytes straddle a sector
// boundary: 5 sectors (and with offset % 32 != 0, two 128-byte lines).
// Block 256, grid n / 256; both buffers hold n + offset floats.

extern "C" __global__ void copy_misaligned(float* out, const float* in, int offset) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + offset;
  out[i] = in[i];
}
