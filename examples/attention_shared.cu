// Attention for one head through shared memory, flash-attention style: a block takes 32
// queries of one (batch, head), walks the 256 keys in tiles of 32, and for each tile
// computes S = Q K^T (32 x 32), the online softmax of each row, and O += P V, never writing
// S to global memory. Head dimension D = 64. Q, K, V, O are (BH = 8, T = 256, D) floats
// (512 KiB each). Grid (T / 32, BH) = (8, 8), 256 threads = 8 warps; warp w owns query rows
// 4w .. 4w + 3, and in S lane c is key c of the tile.
//
// attention_tile<LAYOUT> (explicit instantiations, launched by mangled name); the K tile:
//   LAYOUT 0, plain: k[32][64] floats, filled with float4 stores, read column-wise as
//     float4: lane c reads k[c][4j .. 4j+3], 256 bytes after lane c - 1. A 16-byte load is
//     served a quarter-warp (8 lanes) at a time, and those 8 lanes all start in bank 0:
//     8-way, 32 wavefronts per load where 4 would do (a scalar read would be 32-way).
//   LAYOUT 1, padded: k[32][65], the textbook fix: one float of padding per row makes lane
//     c's word c * 65 + d, bank (c + d) % 32, conflict-free; but rows are no longer 16-byte
//     aligned, so the tile is filled and read one float at a time (4x the instructions).
//   LAYOUT 2, swizzled: k[32][64] with the 16-byte chunk j of row c stored at chunk
//     j ^ (c & 7), the layout `warpscope fix` picks (Swizzle<3,4,4> on bytes): the 8 lanes of
//     a quarter-warp read 8 different chunk positions, conflict-free, with float4 stores and
//     loads kept and no extra bytes.
// q[r][..] is a broadcast; the P V loop reads p[r][c] (a broadcast) and v[c][2 lane .. +1]
// as float2 (conflict-free).

#define T 256
#define D 64
#define BR 32
#define BC 32

template <int LAYOUT>
__device__ __forceinline__ int chunk(int row, int j) { return LAYOUT == 2 ? j ^ (row & 7) : j; }

template <int LAYOUT>
__global__ void attention_tile(float* O, const float* Q, const float* K, const float* V, float scale) {
  constexpr int KPITCH = LAYOUT == 1 ? D + 1 : D;
  __shared__ __align__(16) float q[BR][D];
  __shared__ __align__(16) float k[BC][KPITCH];
  __shared__ __align__(16) float v[BC][D];
  __shared__ float p[BR][BC];
  const int t = threadIdx.x, lane = t & 31, warp = t >> 5;
  const int bh = blockIdx.y, q0 = blockIdx.x * BR;
  const float* Qb = Q + (bh * T + q0) * D;
  const float* Kb = K + bh * T * D;
  const float* Vb = V + bh * T * D;
  for (int i = t; i < BR * D / 4; i += blockDim.x)  // 32 x 64 floats as 512 float4
    reinterpret_cast<float4*>(&q[0][0])[i] = reinterpret_cast<const float4*>(Qb)[i];
  float m[4], l[4];
  float2 acc[4];
  for (int r = 0; r < 4; ++r) {
    m[r] = -INFINITY;
    l[r] = 0.0f;
    acc[r] = make_float2(0.0f, 0.0f);
  }
  for (int k0 = 0; k0 < T; k0 += BC) {
    __syncthreads();  // the previous tile's k and v are no longer read
    for (int i = t; i < BC * D / 4; i += blockDim.x) {
      const int row = i / (D / 4), j = i % (D / 4);
      const float4 kv = reinterpret_cast<const float4*>(Kb + (k0 + row) * D)[j];
      if (LAYOUT == 1) {
        k[row][4 * j + 0] = kv.x;
        k[row][4 * j + 1] = kv.y;
        k[row][4 * j + 2] = kv.z;
        k[row][4 * j + 3] = kv.w;
      } else {
        reinterpret_cast<float4*>(&k[row][0])[chunk<LAYOUT>(row, j)] = kv;
      }
      reinterpret_cast<float4*>(&v[row][0])[j] = reinterpret_cast<const float4*>(Vb + (k0 + row) * D)[j];
    }
    __syncthreads();
    for (int rr = 0; rr < 4; ++rr) {
      const int r = warp * 4 + rr;
      float s = 0.0f;
      if (LAYOUT == 1) {
#pragma unroll 16
        for (int d = 0; d < D; ++d) s += q[r][d] * k[lane][d];  // K read column-wise
      } else {
#pragma unroll 4
        for (int j = 0; j < D / 4; ++j) {  // K read column-wise, 16 bytes per lane
          const float4 qq = reinterpret_cast<const float4*>(&q[r][0])[j];
          const float4 kk = reinterpret_cast<const float4*>(&k[lane][0])[chunk<LAYOUT>(lane, j)];
          s += qq.x * kk.x + qq.y * kk.y + qq.z * kk.z + qq.w * kk.w;
        }
      }
      s *= scale;
      float mx = s;
      for (int o = 16; o > 0; o >>= 1) mx = fmaxf(mx, __shfl_xor_sync(0xffffffffu, mx, o));
      const float nm = fmaxf(m[rr], mx);
      const float e = __expf(s - nm);
      float sum = e;
      for (int o = 16; o > 0; o >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, o);
      const float corr = __expf(m[rr] - nm);
      l[rr] = l[rr] * corr + sum;
      m[rr] = nm;
      p[r][lane] = e;
      __syncwarp();
      float2 a = make_float2(acc[rr].x * corr, acc[rr].y * corr);
#pragma unroll 8
      for (int c = 0; c < BC; ++c) {
        const float pc = p[r][c];
        const float2 vv = reinterpret_cast<const float2*>(&v[c][0])[lane];
        a.x += pc * vv.x;
        a.y += pc * vv.y;
      }
      acc[rr] = a;
      __syncwarp();
    }
  }
  for (int rr = 0; rr < 4; ++rr) {
    const int r = warp * 4 + rr;
    const float inv = 1.0f / l[rr];
    reinterpret_cast<float2*>(O + (bh * T + q0 + r) * D)[lane] = make_float2(acc[rr].x * inv, acc[rr].y * inv);
  }
}

template __global__ void attention_tile<0>(float*, const float*, const float*, const float*, float);
template __global__ void attention_tile<1>(float*, const float*, const float*, const float*, float);
template __global__ void attention_tile<2>(float*, const float*, const float*, const float*, float);
