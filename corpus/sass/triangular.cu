// triangular.cu: loops whose trip count differs between the lanes of a warp (the causal loops
// of attention kernels: llm.c's attention_softmax_kernel1 reads preatt[t2] for t2 <= t).
// Hypothesis (issue 13 item 6, attention kernels' global load requests 0.2-0.7% above
// warpscope's): nvcc unrolls the loop by 4 with a remainder loop; ptxas unrolls the by-4 loop
// again, to a 16-body loop followed by one 8-body and one 4-body block, then the remainder.
// A warp runs each SASS block for the lanes that still need it, so lanes that would share one
// PTX iteration run in different SASS blocks: more load instructions (requests) than the PTX
// runs. warpscope emulates the PTX's loop and counts fewer; the H200 counts the SASS's.
//
//   triangular_rows    lane l of each warp sums row l of its block's 32x1024 matrix over
//                      t2 <= (warp * 32 + l) % 1024: trip counts differ inside every warp.
//   uniform_rows       the same with one trip count per warp (all lanes t2 <= warp * 32):
//                      a control, where both structures run the same instructions.
// Block 256 (8 warps), grid 16; x: 16 x 256 rows x 1024 floats.
extern "C" __global__ void triangular_rows(float* out, const float* x) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = row % 1024;
  const float* r = x + row * 1024;
  float acc = 0.0f;
  for (int t2 = 0; t2 <= t; ++t2) acc += r[t2];
  out[row] = acc;
}

extern "C" __global__ void uniform_rows(float* out, const float* x) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int t = (row / 32 * 32) % 1024;
  const float* r = x + row * 1024;
  float acc = 0.0f;
  for (int t2 = 0; t2 <= t; ++t2) acc += r[t2];
  out[row] = acc;
}
