// Cooperative groups beyond one warp: tiles of 64 and 128 threads need scratch memory for
// their barriers and collectives, which cooperative groups reserves in shared memory
// (cg::block_tile_memory, read through %reserved_smem_offset_* in the PTX).
//
// reduce_tile64: each block of 256 threads reduces 512 floats: thread_block_tile<64> from
//   tiled_partition on a block built over block_tile_memory, cg::reduce over the tile, the
//   four tile sums added by thread 0. n = 262144 floats, grid 512.
// scan_tile128: inclusive scan within tiles of 128 (cg::inclusive_scan on a 128-thread
//   tile), 256 threads, n = 131072, grid 512.

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void reduce_tile64(float* partial, const float* in) {
  __shared__ cg::block_tile_memory<256> scratch;
  __shared__ float tile_sums[4];
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<64>(block);
  const unsigned i = blockIdx.x * 512 + threadIdx.x;
  const float v = cg::reduce(tile, in[i] + in[i + 256], cg::plus<float>());
  if (tile.thread_rank() == 0) tile_sums[tile.meta_group_rank()] = v;
  block.sync();
  if (threadIdx.x == 0) partial[blockIdx.x] = tile_sums[0] + tile_sums[1] + tile_sums[2] + tile_sums[3];
}

extern "C" __global__ void scan_tile128(float* out, const float* in) {
  __shared__ cg::block_tile_memory<256> scratch;
  cg::thread_block block = cg::this_thread_block(scratch);
  auto tile = cg::tiled_partition<128>(block);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = cg::inclusive_scan(tile, in[i]);
}
