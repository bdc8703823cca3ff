// Indexed reads and writes over 16384 floats. Indices come from data/ through `file:`:
//   perm_16384.bin: a random permutation of 0..16383 (u32);
//   idx_local_16384.bin: i + a random offset within +-64 (clamped), the near-sequential
//   gathers of a sorted sparse layout;
//   idx_random_16384.bin: uniform random indices in [0, 16384) with repeats;
//   perm_2048.bin: a permutation of the 2048 rows.
//
// gather_f32:  out[i] = in[idx[i]]           (grid 64 x 256)
// scatter_f32: out[idx[i]] = in[i]           (permutation: no two lanes write one word)
// gather_rows_float4: out row r = in row rows[r], rows of 16 float4 (64 floats): one warp
//   moves two rows per instruction (16 lanes x 16 B each). 2048 rows, grid 128 x 256.

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
