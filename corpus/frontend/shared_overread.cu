// shared_overread.cu: reads past the end of a __shared__ array whose values nothing uses, as
// block reductions written for 32 warps do with fewer (LeetCUDA's per-token online softmax:
// all 32 lanes of warp 0 read partial[lane] of partial[NUM_WARPS]). The question for the H200:
// does such a read fault, and what does ncu count for the lanes past the array?
//
//   overread_tail   partial[8] floats; lanes 0..31 of warp 0 read partial[lane] (up to 96
//                   bytes past the 32-byte array), a shuffle sum over 8 lanes uses lanes 0-7.
//   overread_far    the same array; lane l reads partial[l * 64] (up to 7936 bytes past it,
//                   beyond the block's shared memory), its value masked off by a select.
// Grid 4, block 256; in: 1024 floats, out: 4 floats. overread_span: at the end.
extern "C" __global__ void overread_tail(float* out, const float* in) {
  constexpr int kWarps = 256 / 32;
  __shared__ float partial[kWarps];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  float v = in[blockIdx.x * 256 + t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (t < 32) {
    float b = partial[lane];
    for (int o = kWarps / 2; o > 0; o >>= 1) b += __shfl_xor_sync(0xffffffffu, b, o);
    if (t == 0) out[blockIdx.x] = b;
  }
}

extern "C" __global__ void overread_far(float* out, const float* in) {
  constexpr int kWarps = 256 / 32;
  __shared__ float partial[kWarps];
  const int t = threadIdx.x, lane = t % 32, warp = t / 32;
  float v = in[blockIdx.x * 256 + t];
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (t < 32) {
    volatile float* p = partial;
    float b = p[lane * 64];
    b = lane == 0 ? b : 0.f;
    for (int o = 16; o > 0; o >>= 1) b += __shfl_xor_sync(0xffffffffu, b, o);
    if (t == 0) out[blockIdx.x] = b;
  }
}

// overread_span: partial[16] floats (64 bytes); lane l of warp 0 reads partial[l * stride], up
// to 124 * stride bytes from the array's start. H200: stride 1 (124 bytes) runs, 2..32 fault:
// the block's window is its 64 bytes rounded up to 128.
extern "C" __global__ void overread_span(float* out, const float* in, int stride) {
  __shared__ float partial[16];
  const int t = threadIdx.x, lane = t % 32;
  if (t < 16) partial[t] = in[blockIdx.x * 16 + t];
  __syncthreads();
  if (t < 32) {
    volatile float* p = partial;
    float b = p[lane * stride];
    b = lane < 16 / stride ? b : 0.f;
    for (int o = 16; o > 0; o >>= 1) b += __shfl_xor_sync(0xffffffffu, b, o);
    if (t == 0) out[blockIdx.x] = b;
  }
}
