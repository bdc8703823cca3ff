// Indexed reads and writes. Indices come from data/ through `file:`:
//   perm_32768.bin: a random permutation of 0..32767 (u32);
//   idx_local_32768.bin: i + small random offsets within +-64 (clamped), the near-sequential
//   gathers of a sorted sparse layout;
//   idx_random_32768.bin: uniform random indices in [0, 32768) with repeats.
//
// gather_f32:  out[i] = in[idx[i]]           (grid 128 x 256)
// scatter_f32: out[idx[i]] = in[i]           (permutation: no two lanes write one word)
// gather_rows_float4: out row r = in row idx[r], rows of 64 floats read as float4: one warp
//   moves two rows per instruction (16 lanes x 16 B each). 2048 rows, grid 64 x 256.

extern "C" __global__ void gather_f32(float* out, const float* in, const unsigned* idx) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[idx[i]];
}

extern "C" __global__ void scatter_f32(float* out, const float* in, const unsigned* idx) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx[i]] = in[i];
}

extern "C" __global__ void gather_rows_float4(float4* out, const float4* in, const unsigned* rows) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;  // 16 float4 per row
  const int r = g >> 4, c = g & 15;
  out[g] = in[rows[r] * 16 + c];
}
