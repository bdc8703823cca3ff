// float4 (16-byte) accesses through shared memory. A warp's 32 x 16 B = 512 B
// can never go in one wavefront (a wavefront moves at most 128 B, 32 banks x
// 4 B): the ideal is 4 wavefronts, one per quarter-warp of 8 lanes.
//
// smem_float4_contiguous: lane i stores and loads tile[i] -> each quarter-warp
//   covers 128 contiguous bytes: 4 wavefronts per instruction, no excess.
// smem_float4_strided: lanes 0..15 load the even float4s of the warp's 512 B,
//   lanes 16..31 the odd ones (a permutation: the warp still reads all 512 B).
//   Within a quarter-warp, lanes 0 and 4 (bytes 0 and 128) share banks, so a
//   quarter-warp-at-a-time rule gives 8 wavefronts instead of 4; a rule that
//   regroups lanes by address gives 4. The measurement tells which.
// Each block moves 256 float4 (block 256 threads, one float4 each); grid n / 256
// where n counts float4 elements.

#define BLOCK 256

extern "C" __global__ void smem_float4_contiguous(float4* out, const float4* in) {
  __shared__ float4 tile[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  float4 v = tile[threadIdx.x];
  out[i] = make_float4(v.w, v.z, v.y, v.x);
}

extern "C" __global__ void smem_float4_strided(float4* out, const float4* in) {
  __shared__ float4 tile[BLOCK];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[threadIdx.x] = in[i];
  __syncthreads();
  int warp_base = threadIdx.x & ~31;
  int lane = threadIdx.x & 31;
  float4 v = tile[warp_base + (2 * lane) % 32 + (lane >= 16)];
  out[i] = make_float4(v.w, v.z, v.y, v.x);
}
