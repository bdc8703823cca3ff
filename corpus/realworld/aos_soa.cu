// Array-of-structures layouts that particle and graphics codes use. n = 65536 records.
//
// aos16_integrate: struct {float x, y, z, w;} (16 bytes, but only 4-byte aligned: no
//   __align__(16)), so nvcc emits four 32-bit loads per record and ptxas cannot widen them:
//   each load's lanes are 16 bytes apart, 16 sectors where 4 would do (pos and vel alike).
// aos20_read_x: struct of five floats (20 B): only .x read and .x written: every lane's
//   word lands 20 B apart (3.3 sectors' worth per 8 lanes).
// aos_to_soa_shared: converts 12-byte {x, y, z} records to three arrays through shared
//   memory: the block loads 256 records (768 floats) coalesced as floats, then thread t
//   reads s[3t + c] (stride-3 words: conflict-free, 3 is odd) and writes arrays coalesced.
// Grid 256 x 256.

struct Particle4 { float x, y, z, w; };
struct Record5 { float x, y, z, mass, charge; };

extern "C" __global__ void aos16_integrate(Particle4* pos, const Particle4* vel, float dt) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  Particle4 p = pos[i];
  const Particle4 v = vel[i];
  p.x += v.x * dt;
  p.y += v.y * dt;
  p.z += v.z * dt;
  p.w += v.w * dt;
  pos[i] = p;
}

extern "C" __global__ void aos20_read_x(Record5* r, float scale) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  r[i].x = r[i].x * scale + r[i].charge;
}

extern "C" __global__ void aos_to_soa_shared(float* xs, float* ys, float* zs, const float* xyz) {
  __shared__ float s[3 * 256];
  const float* block_in = xyz + blockIdx.x * 3 * 256;
  for (int k = threadIdx.x; k < 3 * 256; k += blockDim.x) s[k] = block_in[k];
  __syncthreads();
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  xs[i] = s[3 * threadIdx.x + 0];
  ys[i] = s[3 * threadIdx.x + 1];
  zs[i] = s[3 * threadIdx.x + 2];
}
