// ldmatrix x4 from a shared tile.
extern "C" __global__ void ldsm(unsigned* out, const unsigned short* in) {
  __shared__ __align__(16) unsigned short tile[32 * 8];
  for (int i = threadIdx.x; i < 256; i += 32) tile[i] = in[i];
  __syncthreads();
  unsigned r0, r1, r2, r3;
  unsigned addr = (unsigned)__cvta_generic_to_shared(&tile[(threadIdx.x % 32) * 8]);
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
  out[threadIdx.x * 4 + 0] = r0; out[threadIdx.x * 4 + 1] = r1;
  out[threadIdx.x * 4 + 2] = r2; out[threadIdx.x * 4 + 3] = r3;
}
