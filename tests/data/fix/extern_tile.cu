// extern_tile.cu: a transpose through an extern __shared__ tile (its size is the launch's
// --dyn-smem): the column read is 32-way. `warpscope fix` must give the index expression to
// use (an extern array cannot be declared padded), name the element type as declared
// (unsigned, not float), and keep the block within its shared-memory limit when the launch
// gives it almost all of it (src/cli/fix_command_test.cc).
// nvcc -arch=sm_90 -lineinfo -ptx extern_tile.cu
extern "C" __global__ void extern_tile(unsigned* out, const unsigned* in) {
  extern __shared__ unsigned tile[];
  const unsigned x = threadIdx.x, y = threadIdx.y;
  for (unsigned j = 0; j < 32; j += 8) tile[(y + j) * 32 + x] = in[(y + j) * 32 + x];
  __syncthreads();
  for (unsigned j = 0; j < 32; j += 8) out[(y + j) * 32 + x] = tile[x * 32 + y + j];
}
