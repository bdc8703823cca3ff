// Integer dot products (__dp4a, __dp2a_lo/_hi: PTX dp4a/dp2a, SASS IDP.4A/IDP.2A), as int8
// quantized kernels use them, with their results deciding addresses so that a wrong value
// would move traffic (issue 13: an instruction a sample collection used that warpscope did not
// emulate). Inputs are iota: buffers hold their byte offsets' words, so every lane's operands
// differ and mix signs.
//
// dp4a_bins: each thread takes one packed int8x4 word of a and b, s = __dp4a(a, b, i); the bin
//   (s & 255) gets a shared atomicAdd, then the block's 256 bins go out with one add each.
// dp2a_gather: t = __dp2a_lo(a, b, 0) + __dp2a_hi(a, b, 0) (unsigned forms); the thread reads
//   table[t & 4095] and writes it: the gather's sectors follow the dot products.
#include <cstdint>

__global__ void dp4a_bins(const int* a, const int* b, unsigned* bins, int n) {
  __shared__ unsigned local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int s = __dp4a(a[i], b[(i * 7) % n], i);
    atomicAdd(&local[s & 255], 1u);
  }
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__global__ void dp2a_gather(const unsigned* a, const unsigned* b, const float* table, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  unsigned t = __dp2a_lo(a[i], b[i], 0u) + __dp2a_hi(a[i], b[i], 0u);
  out[i] = table[t & 4095u];
}
