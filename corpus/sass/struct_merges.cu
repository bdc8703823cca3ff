// struct_merges.cu: unrolled reads of a shared array of structs at static offsets that ptxas
// merges into LDS.128 across element boundaries (cuda-samples dxtc reads its `float3 colors[16]`
// this way, and one thread its `uint xrefs[16]`): the array sits at a 16-byte-aligned place
// in the block's shared memory, so 48 four-byte loads at colors+0 ... colors+188 become 12
// LDS.128 at +0x00 ... +0xb0 although no float3 is 16-byte aligned.
//   nearest_float3   every thread finds the nearest of 16 colours (all lanes read one address)
//   nearest_float3_2 the same after a loop ptxas may duplicate (two groups of 16 queries)
//   sum_u32_one      thread 0 sums 16 consecutive words of a table (4 LDS.128)
// Block 64, grid 256: colours from in (16 float3 per block), queries from q (one per thread).
extern "C" __global__ void nearest_float3(float* out, const float3* in, const float3* q) {
  __shared__ float3 colors[16];
  if (threadIdx.x < 16) colors[threadIdx.x] = in[blockIdx.x * 16 + threadIdx.x];
  __syncthreads();
  const float3 p = q[blockIdx.x * blockDim.x + threadIdx.x];
  float best = 1e30f;
  int arg = 0;
#pragma unroll
  for (int i = 0; i < 16; ++i) {
    const float dx = colors[i].x - p.x, dy = colors[i].y - p.y, dz = colors[i].z - p.z;
    const float d = dx * dx + dy * dy + dz * dz;
    if (d < best) {
      best = d;
      arg = i;
    }
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = best + static_cast<float>(arg);
}

extern "C" __global__ void nearest_float3_2(float* out, const float3* in, const float3* q, int rounds) {
  __shared__ float3 colors[16];
  if (threadIdx.x < 16) colors[threadIdx.x] = in[blockIdx.x * 16 + threadIdx.x];
  __syncthreads();
  float acc = 0.0f;
  for (int r = 0; r < rounds; ++r) {
    const float3 p = q[(blockIdx.x * rounds + r) * blockDim.x + threadIdx.x];
    float best = 1e30f;
#pragma unroll
    for (int i = 0; i < 16; ++i) {
      const float dx = colors[i].x - p.x, dy = colors[i].y - p.y, dz = colors[i].z - p.z;
      best = fminf(best, dx * dx + dy * dy + dz * dz);
    }
    acc += best;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

extern "C" __global__ void sum_u32_one(unsigned* out, const unsigned* in) {
  __shared__ unsigned table[64];
  table[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned s = 0;
#pragma unroll
    for (int i = 0; i < 16; ++i) s += table[i] * (i + 1);
    out[blockIdx.x] = s;
  }
}
