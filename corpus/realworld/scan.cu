// Prefix sums as libraries and samples write them. n = 131072 floats (512 KiB) unless said.
//
// scan_hillis_steele: inclusive scan of 512 floats per block (512 threads), double-buffered
//   in shared memory: log2(512) = 9 steps, thread t adds element t - d (a shifted, conflict-
//   free read), swapping buffers each step. Grid 256.
// scan_blelloch_inclusive: 1024 floats per block, 512 threads, two per thread loaded as one
//   float2 (64-bit global loads, 64-bit shared stores of adjacent words), Blelloch tree with a
//   padded index (i + i/16): the conflict-free trick with a different pitch. Grid 128.
// scan_warp_shuffle: inclusive scan, 1024 threads per block: __shfl_up_sync within warps, the
//   32 warp totals scanned by warp 0 in shared memory, added back. Grid 128.
// scan_cg_tiles: the same with cooperative groups: cg::inclusive_scan over thread_block_tile<32>,
//   cg::exclusive_scan of the warp totals. 256 threads, grid 512.
// scan_lookback: single-pass scan in the decoupled look-back style: each block of 256 threads
//   scans its 1024-float tile (4 per thread, float4 loads), publishes its aggregate with a flag
//   (flag|value packed into one 64-bit word: 1 = aggregate, 2 = inclusive prefix), then warp 0
//   walks back over predecessors' words, 32 at a time, until it finds an inclusive prefix.
//   Blocks run in order of blockIdx (no dynamic tile counter), and the look-back spins on
//   predecessors' words: how many times a block re-reads them depends on timing between blocks
//   on the GPU. status: gridDim.x 64-bit words, zeroed (data/zeros_1024.bin through
//   file:, for the GPU too). Grid 128.

#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

extern "C" __global__ void scan_hillis_steele(float* out, const float* in) {
  __shared__ float buf[2][512];
  const int t = threadIdx.x;
  const int base = blockIdx.x * 512;
  buf[0][t] = in[base + t];
  int src = 0;
  for (int d = 1; d < 512; d <<= 1) {
    __syncthreads();
    float v = buf[src][t];
    if (t >= d) v += buf[src][t - d];
    buf[src ^ 1][t] = v;
    src ^= 1;
  }
  out[base + t] = buf[src][t];
}

#define PAD(i) ((i) + ((i) >> 4))

extern "C" __global__ void scan_blelloch_inclusive(float* out, const float* in) {
  __shared__ float s[PAD(1024) + 1];
  const int t = threadIdx.x;
  const float2 pair = reinterpret_cast<const float2*>(in + blockIdx.x * 1024)[t];
  s[PAD(2 * t)] = pair.x;
  s[PAD(2 * t + 1)] = pair.y;
  int step = 1;
  for (int active = 512; active > 0; active >>= 1) {
    __syncthreads();
    if (t < active) s[PAD(step * (2 * t + 2) - 1)] += s[PAD(step * (2 * t + 1) - 1)];
    step <<= 1;
  }
  if (t == 0) s[PAD(1023)] = 0.0f;
  for (int active = 1; active < 1024; active <<= 1) {
    step >>= 1;
    __syncthreads();
    if (t < active) {
      const int l = PAD(step * (2 * t + 1) - 1), r = PAD(step * (2 * t + 2) - 1);
      const float v = s[l];
      s[l] = s[r];
      s[r] += v;
    }
  }
  __syncthreads();
  float2 res;  // exclusive + own value = inclusive
  res.x = s[PAD(2 * t)] + pair.x;
  res.y = s[PAD(2 * t + 1)] + pair.y;
  reinterpret_cast<float2*>(out + blockIdx.x * 1024)[t] = res;
}

extern "C" __global__ void scan_warp_shuffle(float* out, const float* in) {
  __shared__ float warp_totals[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  float v = in[i];
  for (int d = 1; d < 32; d <<= 1) {
    const float up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float w = warp_totals[lane];
    for (int d = 1; d < 32; d <<= 1) {
      const float up = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += up;
    }
    warp_totals[lane] = w;
  }
  __syncthreads();
  if (warp > 0) v += warp_totals[warp - 1];
  out[i] = v;
}

extern "C" __global__ void scan_cg_tiles(float* out, const float* in) {
  __shared__ float totals[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float x = in[i];
  float v = cg::inclusive_scan(tile, x);
  if (tile.thread_rank() == 31) totals[tile.meta_group_rank()] = v;
  block.sync();
  if (tile.meta_group_rank() == 0) {
    const float w = tile.thread_rank() < 8 ? totals[tile.thread_rank()] : 0.0f;
    const float before = cg::exclusive_scan(tile, w);
    if (tile.thread_rank() < 8) totals[tile.thread_rank()] = before;
  }
  block.sync();
  out[i] = v + totals[tile.meta_group_rank()];
}

__device__ __forceinline__ unsigned long long pack_status(unsigned flag, float value) {
  return (static_cast<unsigned long long>(flag) << 32) | __float_as_uint(value);
}

extern "C" __global__ void scan_lookback(float* out, const float* in, unsigned long long* status) {
  __shared__ float warp_totals[8];
  __shared__ float block_prefix;
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int tile = blockIdx.x;
  const float4 q = reinterpret_cast<const float4*>(in + tile * 1024)[t];
  // thread-local inclusive scan of its four values
  const float s1 = q.x, s2 = s1 + q.y, s3 = s2 + q.z, s4 = s3 + q.w;
  float v = s4;
  for (int d = 1; d < 32; d <<= 1) {
    const float up = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d) v += up;
  }
  if (lane == 31) warp_totals[warp] = v;
  __syncthreads();
  if (warp == 0) {
    float w = lane < 8 ? warp_totals[lane] : 0.0f;
    for (int d = 1; d < 8; d <<= 1) {
      const float up = __shfl_up_sync(0xffffffffu, w, d);
      if (lane >= d) w += up;
    }
    if (lane < 8) warp_totals[lane] = w;
    const float aggregate = __shfl_sync(0xffffffffu, w, 7);
    volatile unsigned long long* st = status;
    if (lane == 0) st[tile] = pack_status(tile == 0 ? 2u : 1u, aggregate);
    float prefix = 0.0f;
    if (tile > 0) {
      int look = tile - 1;  // lane l inspects predecessor look - l
      while (true) {
        const int j = look - lane;
        unsigned long long word = j >= 0 ? st[j] : pack_status(2u, 0.0f);
        unsigned flag = static_cast<unsigned>(word >> 32);
        if (__any_sync(0xffffffffu, flag == 0)) continue;  // a predecessor not yet published
        const unsigned inclusive = __ballot_sync(0xffffffffu, flag == 2);
        const int stop = __ffs(inclusive) - 1;             // nearest inclusive prefix
        float part = (lane <= stop) ? __uint_as_float(static_cast<unsigned>(word)) : 0.0f;
        for (int d = 16; d > 0; d >>= 1) part += __shfl_down_sync(0xffffffffu, part, d);
        prefix += __shfl_sync(0xffffffffu, part, 0);
        if (inclusive) break;
        look -= 32;
      }
      if (lane == 0) st[tile] = pack_status(2u, prefix + aggregate);
    }
    if (lane == 0) block_prefix = prefix;
  }
  __syncthreads();
  const float before = block_prefix + (warp > 0 ? warp_totals[warp - 1] : 0.0f) + v - s4;
  float4 r;
  r.x = before + s1; r.y = before + s2; r.z = before + s3; r.w = before + s4;
  reinterpret_cast<float4*>(out + tile * 1024)[t] = r;
}
