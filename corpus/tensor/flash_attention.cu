// flash_attention.cu: a FlashAttention-2-style forward pass, O = softmax(Q K^T * scale) V,
// for one head of dimension 64 in f16 with mma.sync.m16n8k16 (f32 accumulators):
//   - a block of 4 warps takes 64 queries (16 per warp); Q, then each 64-key tile of K and V,
//     go to shared memory by cp.async (rows padded to 72 halves: 144 bytes, 9 is odd, so
//     the 8 rows of an ldmatrix read hit 8 different 16-byte bank groups);
//   - S = Q K^T: Q fragments by ldmatrix.x4, K's by ldmatrix.x4 ([key][d] is B column-major);
//   - online softmax in registers (row max and sum over the 4 lanes of a row: shfl.xor 1, 2);
//   - O += P V: P straight from S's accumulators (two n8 tiles make one k16 A fragment),
//     V's fragments by ldmatrix.x4.trans ([key][d] is B row-major).
// `pad` = 0 packs rows at 128 bytes instead: every ldmatrix read is then 8-way conflicted.
// Launch: grid (N/64), block 128; N a multiple of 64.
#include <cuda_fp16.h>

#include <cstdint>

namespace {

constexpr int D = 64, BQ = 64, BKV = 64, kPad = 72;

__device__ __forceinline__ void copy16(void* dst, const void* src) {
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(static_cast<uint32_t>(__cvta_generic_to_shared(dst))),
               "l"(src)
               : "memory");
}

__device__ __forceinline__ void ldsm_x4(uint32_t (&r)[4], const void* p, bool trans) {
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(p));
  if (trans)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
  else
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(a));
}

__device__ __forceinline__ void mma(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1) {
  asm volatile(
      "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
      "{%0, %1, %2, %3};"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ __forceinline__ uint32_t pack(float lo, float hi) {
  const __half2 h = __floats2half2_rn(lo, hi);
  return *reinterpret_cast<const uint32_t*>(&h);
}

// rows x 64 halves from global (row stride D) to shared (row stride `stride`).
__device__ __forceinline__ void load_tile(half* dst, const half* src, int rows, int stride) {
  for (int i = threadIdx.x; i < rows * D / 8; i += blockDim.x) {
    const int r = i / (D / 8), c = i % (D / 8);
    copy16(dst + r * stride + c * 8, src + static_cast<size_t>(r) * D + c * 8);
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
}

}  // namespace

extern "C" __global__ void __launch_bounds__(128) flash_attention_fwd(const half* Q, const half* K, const half* V, half* O,
                                                                       int N, float scale, int pad) {
  __shared__ __align__(16) half Qs[BQ * kPad], Ks[BKV * kPad], Vs[BKV * kPad];
  const int stride = pad ? kPad : D;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32, q0 = blockIdx.x * BQ;
  load_tile(Qs, Q + static_cast<size_t>(q0) * D, BQ, stride);
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  // Q fragments: rows 16*warp + lane%16, d columns 16*kk + 8*(lane/16).
  uint32_t qf[D / 16][4];
  for (int kk = 0; kk < D / 16; ++kk)
    ldsm_x4(qf[kk], &Qs[(16 * warp + lane % 16) * stride + 16 * kk + 8 * (lane / 16)], false);

  float o[D / 8][4] = {};
  float row_max[2] = {-INFINITY, -INFINITY}, row_sum[2] = {0, 0};  // rows g and g + 8
  for (int k0 = 0; k0 < N; k0 += BKV) {
    __syncthreads();  // the previous tile's readers are done
    load_tile(Ks, K + static_cast<size_t>(k0) * D, BKV, stride);
    load_tile(Vs, V + static_cast<size_t>(k0) * D, BKV, stride);
    asm volatile("cp.async.wait_group 0;" ::: "memory");
    __syncthreads();
    float s[BKV / 8][4] = {};
    for (int kk = 0; kk < D / 16; ++kk)
      for (int j = 0; j < BKV / 16; ++j) {  // keys 16j..16j+15: two n8 tiles
        // matrices: (keys +0..7, d +0..7), (keys +0..7, d +8..15), (keys +8..15, d +0..7), (+8.., +8..)
        uint32_t kf[4];
        const int key = 16 * j + lane % 8 + 8 * (lane / 16), d = 16 * kk + 8 * ((lane / 8) % 2);
        ldsm_x4(kf, &Ks[key * stride + d], false);
        mma(s[2 * j], qf[kk], kf[0], kf[1]);
        mma(s[2 * j + 1], qf[kk], kf[2], kf[3]);
      }
    // Online softmax per row (elements 0,1: row g; 2,3: row g + 8).
    for (int h = 0; h < 2; ++h) {
      float m = row_max[h];
      for (int j = 0; j < BKV / 8; ++j) m = fmaxf(m, fmaxf(s[j][2 * h], s[j][2 * h + 1]) * scale);
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 1));
      m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, 2));
      const float correction = __expf(row_max[h] - m);
      row_max[h] = m;
      float sum = 0;
      for (int j = 0; j < BKV / 8; ++j)
        for (int e = 0; e < 2; ++e) {
          const float p = __expf(s[j][2 * h + e] * scale - m);
          s[j][2 * h + e] = p;
          sum += p;
        }
      sum += __shfl_xor_sync(0xffffffffu, sum, 1);
      sum += __shfl_xor_sync(0xffffffffu, sum, 2);
      row_sum[h] = row_sum[h] * correction + sum;
      for (int j = 0; j < D / 8; ++j) {
        o[j][2 * h] *= correction;
        o[j][2 * h + 1] *= correction;
      }
    }
    // O += P V over the 64 keys: P's k16 A fragment from S tiles 2t, 2t + 1.
    for (int t = 0; t < BKV / 16; ++t) {
      const uint32_t pf[4] = {pack(s[2 * t][0], s[2 * t][1]), pack(s[2 * t][2], s[2 * t][3]),
                              pack(s[2 * t + 1][0], s[2 * t + 1][1]), pack(s[2 * t + 1][2], s[2 * t + 1][3])};
      for (int j = 0; j < D / 16; ++j) {  // d columns 16j..16j+15
        uint32_t vf[4];
        const int key = 16 * t + lane % 8 + 8 * ((lane / 8) % 2), d = 16 * j + 8 * (lane / 16);
        ldsm_x4(vf, &Vs[key * stride + d], true);
        mma(o[2 * j], pf, vf[0], vf[1]);
        mma(o[2 * j + 1], pf, vf[2], vf[3]);
      }
    }
  }
  const int g = lane / 4, q = lane % 4;
  for (int h = 0; h < 2; ++h) {
    const int row = q0 + 16 * warp + g + 8 * h;
    for (int j = 0; j < D / 8; ++j)
      *reinterpret_cast<__half2*>(O + static_cast<size_t>(row) * D + 8 * j + 2 * q) =
          __floats2half2_rn(o[j][2 * h] / row_sum[h], o[j][2 * h + 1] / row_sum[h]);
  }
}
