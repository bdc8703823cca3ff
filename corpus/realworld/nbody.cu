// All-pairs n-body accelerations with tiles of bodies in shared memory (the GPU Gems 31
// scheme, written here with our own names). n = 2048 bodies.
//
// nbody_tiles_float4: positions as float4 (x, y, z, mass); each block of 256 threads walks
//   the n bodies in tiles of 256: every thread loads one body into shared memory, then every
//   thread reads all 256 (the same address across the warp: broadcasts, LDS.128 after ptxas).
//   Grid 8.
// nbody_tiles_soa: positions in four arrays (SoA), tile of 128 bodies as four shared float
//   arrays, 128 threads, inner loop unrolled by 4. Grid 16.

extern "C" __global__ void nbody_tiles_float4(float4* accel, const float4* pos, int n, float soft2) {
  __shared__ float4 tile[256];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 me = pos[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += 256) {
    tile[threadIdx.x] = pos[base + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < 256; ++j) {
      const float4 b = tile[j];
      const float dx = b.x - me.x, dy = b.y - me.y, dz = b.z - me.z;
      const float r2 = dx * dx + dy * dy + dz * dz + soft2;
      const float inv = rsqrtf(r2);
      const float s = b.w * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  accel[i] = make_float4(ax, ay, az, 0.0f);
}

extern "C" __global__ void nbody_tiles_soa(float* ax_out, float* ay_out, float* az_out, const float* px,
                                           const float* py, const float* pz, const float* pm, int n, float soft2) {
  __shared__ float sx[128], sy[128], sz[128], sm[128];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = px[i], y = py[i], z = pz[i];
  float ax = 0.0f, ay = 0.0f, az = 0.0f;
  for (int base = 0; base < n; base += 128) {
    sx[threadIdx.x] = px[base + threadIdx.x];
    sy[threadIdx.x] = py[base + threadIdx.x];
    sz[threadIdx.x] = pz[base + threadIdx.x];
    sm[threadIdx.x] = pm[base + threadIdx.x];
    __syncthreads();
#pragma unroll 4
    for (int j = 0; j < 128; ++j) {
      const float dx = sx[j] - x, dy = sy[j] - y, dz = sz[j] - z;
      const float inv = rsqrtf(dx * dx + dy * dy + dz * dz + soft2);
      const float s = sm[j] * inv * inv * inv;
      ax += dx * s; ay += dy * s; az += dz * s;
    }
    __syncthreads();
  }
  ax_out[i] = ax; ay_out[i] = ay; az_out[i] = az;
}
