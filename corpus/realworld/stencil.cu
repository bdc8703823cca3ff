// Stencils with halos in shared memory.
//
// stencil2d_5pt: Jacobi step on a 512x512 float grid, 32x8 threads, each thread two rows
//   (a 32x16 output tile), shared tile [18][34] with a one-cell halo; edges read the grid
//   clamped. Grid (16, 32).
// stencil3d_7pt: 7-point Laplacian on 128^3 floats, the 2-D tile marches along z: 32x8
//   threads over a 32x8 tile of one plane in shared memory ([10][34], halo of one), the z
//   neighbours in registers (behind, current, ahead). Interior only (1..126): blocks cover
//   x 0..127 and y 0..127 with guards. Grid (4, 16).
// stencil3d_27pt: 27-point box on 64^3 floats, three planes [3][10][10] in shared memory,
//   8x8 threads, interior outputs only. Grid (8, 8, 62): z = 1..62.
// stencil1d_r3: 1-D 7-point stencil, 256 threads, tile of 256 + 6 with the halo loaded by
//   the first 6 threads; n = 262144 floats with 3 cells of padding on each side. Grid 1024.

#define N2 512
extern "C" __global__ void stencil2d_5pt(float* out, const float* in) {
  __shared__ float t[18][34];
  const int x0 = blockIdx.x * 32, y0 = blockIdx.y * 16;
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int k = ty * 32 + tx; k < 18 * 34; k += 256) {
    const int r = k / 34, c = k % 34;
    const int gx = min(max(x0 + c - 1, 0), N2 - 1), gy = min(max(y0 + r - 1, 0), N2 - 1);
    t[r][c] = in[gy * N2 + gx];
  }
  __syncthreads();
  for (int j = 0; j < 16; j += 8) {
    const int r = ty + j + 1, c = tx + 1;
    const float v = 0.25f * (t[r - 1][c] + t[r + 1][c] + t[r][c - 1] + t[r][c + 1]);
    out[(y0 + ty + j) * N2 + x0 + tx] = v;
  }
}

#define N3 128
extern "C" __global__ void stencil3d_7pt(float* out, const float* in, float c0, float c1) {
  __shared__ float plane[10][34];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * 32 + tx, y = blockIdx.y * 8 + ty;
  const bool interior = x >= 1 && x < N3 - 1 && y >= 1 && y < N3 - 1;
  const int stride_z = N3 * N3;
  float behind = in[0 * stride_z + y * N3 + x];
  float current = in[1 * stride_z + y * N3 + x];
  for (int z = 1; z < N3 - 1; ++z) {
    const float ahead = in[(z + 1) * stride_z + y * N3 + x];
    __syncthreads();
    plane[ty + 1][tx + 1] = current;
    if (tx == 0) plane[ty + 1][0] = x > 0 ? in[z * stride_z + y * N3 + x - 1] : 0.0f;
    if (tx == 31) plane[ty + 1][33] = x < N3 - 1 ? in[z * stride_z + y * N3 + x + 1] : 0.0f;
    if (ty == 0) plane[0][tx + 1] = y > 0 ? in[z * stride_z + (y - 1) * N3 + x] : 0.0f;
    if (ty == 7) plane[9][tx + 1] = y < N3 - 1 ? in[z * stride_z + (y + 1) * N3 + x] : 0.0f;
    __syncthreads();
    if (interior) {
      const float lap = plane[ty + 1][tx] + plane[ty + 1][tx + 2] + plane[ty][tx + 1] + plane[ty + 2][tx + 1] +
                        behind + ahead;
      out[z * stride_z + y * N3 + x] = c0 * current + c1 * lap;
    }
    behind = current;
    current = ahead;
  }
}

#define M3 64
extern "C" __global__ void stencil3d_27pt(float* out, const float* in) {
  __shared__ float s[3][10][10];
  const int tx = threadIdx.x, ty = threadIdx.y, z = blockIdx.z + 1;
  const int x0 = blockIdx.x * 8 - 1, y0 = blockIdx.y * 8 - 1;
  for (int k = ty * 8 + tx; k < 300; k += 64) {
    const int p = k / 100, r = (k / 10) % 10, c = k % 10;
    const int gx = min(max(x0 + c, 0), M3 - 1), gy = min(max(y0 + r, 0), M3 - 1);
    s[p][r][c] = in[(z - 1 + p) * M3 * M3 + gy * M3 + gx];
  }
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int p = 0; p < 3; ++p)
#pragma unroll
    for (int r = 0; r < 3; ++r)
#pragma unroll
      for (int c = 0; c < 3; ++c) sum += s[p][ty + r][tx + c];
  out[z * M3 * M3 + (y0 + 1 + ty) * M3 + x0 + 1 + tx] = sum * (1.0f / 27.0f);
}

#define RAD 3
// in holds n + 2*RAD floats (element i of the signal at in[i + RAD]); out holds n.
extern "C" __global__ void stencil1d_r3(float* out, const float* in, int n) {
  __shared__ float t[256 + 2 * RAD];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  t[threadIdx.x + RAD] = in[i + RAD];
  if (threadIdx.x < 2 * RAD) {
    const int side = threadIdx.x < RAD ? 0 : 256 + RAD;   // left halo, then right halo
    const int k = threadIdx.x % RAD;
    t[side + k] = in[blockIdx.x * blockDim.x + side + k];
  }
  __syncthreads();
  float sum = 0.0f;
#pragma unroll
  for (int d = -RAD; d <= RAD; ++d) sum += t[threadIdx.x + RAD + d];
  if (i < n) out[i] = sum;
}
