// Strided copy (NVIDIA blog "How to Access Global Memory Efficiently"):
// thread i copies element i*stride. With 4-byte floats a warp's 32 loads cover
//   stride 1: 128 B = 4 sectors       stride 2: 8 sectors
//   stride 4: 16 sectors              stride >= 8: 32 sectors (one per lane)
// so useful bandwidth falls as 1/stride until every lane has its own sector.
// Block 256, grid n / 256; both buffers hold n*stride floats.

extern "C" __global__ void copy_strided(float* out, const float* in, int stride) {
  long i = (long)(blockIdx.x * blockDim.x + threadIdx.x) * stride;
  out[i] = in[i];
}
