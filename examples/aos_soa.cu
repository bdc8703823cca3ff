// Array of structures vs structure of arrays: scale n 3-D points by s.
//
// aos_scale: struct Point { float x, y, z; } (12 bytes). Lane i reads p[i].x at
//   byte 12*i: a warp's x loads span 384 bytes = 12 sectors for 128 useful bytes
//   (3x the ideal), and so do the y and z loads and the three stores.
// soa_scale: three float arrays; each load/store of a warp is 128 contiguous
//   bytes = 4 sectors, the ideal.
// Block 256, grid n / 256.

struct Point {
  float x, y, z;
};

extern "C" __global__ void aos_scale(Point* p, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].x *= s;
    p[i].y *= s;
    p[i].z *= s;
  }
}

extern "C" __global__ void soa_scale(float* x, float* y, float* z, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    x[i] *= s;
    y[i] *= s;
    z[i] *= s;
  }
}
