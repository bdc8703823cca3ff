// Causal self-attention forward pieces (llm.c's layout: qkv is (B, T, 3, NH, HS)), our code.
// B = 2, T = 128, NH = 4, HS = 64: C = 256.
//
// attention_permute: qkv (B,T,3,NH,HS) -> q, k, v each (B,NH,T,HS), one element per thread
//   (reads strided by head, writes coalesced). B*NH*T*HS = 65536 threads, grid 256 x 256.
// attention_online_warp: one warp per query (b, h, t): for keys 0..t (a triangular loop),
//   the lanes split the head dimension (two floats each, float2 loads), the score is a warp
//   reduction, and the output accumulates with the online-softmax rescaling, never storing
//   the T x T matrix. 1024 queries, 256 threads (8 queries), grid 128.
// attention_unpermute: y (B,NH,T,HS) -> out (B,T,NH,HS) (C = NH*HS per token), coalesced
//   reads, head-strided writes. Grid 256 x 256.

#define B 2
#define T 128
#define NH 4
#define HS 64
#define C (NH * HS)

extern "C" __global__ void attention_permute(float* q, float* k, float* v, const float* qkv) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;  // over (b, h, t, d) of q
  const int d = idx % HS, t = (idx / HS) % T, h = (idx / (HS * T)) % NH, b = idx / (HS * T * NH);
  const int src = ((b * T + t) * 3) * C + h * HS + d;       // the q part of token (b, t)
  q[idx] = qkv[src];
  k[idx] = qkv[src + C];
  v[idx] = qkv[src + 2 * C];
}

extern "C" __global__ void attention_online_warp(float* y, const float* q, const float* k, const float* v,
                                                 float scale) {
  const int lane = threadIdx.x & 31;
  const int query = blockIdx.x * (blockDim.x / 32) + (threadIdx.x >> 5);  // (b*NH + h)*T + t
  const int t = query % T;
  const int bh = query / T;
  const float2 qv = reinterpret_cast<const float2*>(q + query * HS)[lane];
  const float* kb = k + bh * T * HS;
  const float* vb = v + bh * T * HS;
  float m = -INFINITY, l = 0.0f;
  float2 acc = make_float2(0.0f, 0.0f);
  for (int j = 0; j <= t; ++j) {
    const float2 kv = reinterpret_cast<const float2*>(kb + j * HS)[lane];
    float s = qv.x * kv.x + qv.y * kv.y;
    for (int dd = 16; dd > 0; dd >>= 1) s += __shfl_xor_sync(0xffffffffu, s, dd);
    s *= scale;
    const float nm = fmaxf(m, s);
    const float corr = __expf(m - nm), p = __expf(s - nm);
    const float2 vv = reinterpret_cast<const float2*>(vb + j * HS)[lane];
    acc.x = acc.x * corr + p * vv.x;
    acc.y = acc.y * corr + p * vv.y;
    l = l * corr + p;
    m = nm;
  }
  const float inv = 1.0f / l;
  reinterpret_cast<float2*>(y + query * HS)[lane] = make_float2(acc.x * inv, acc.y * inv);
}

extern "C" __global__ void attention_unpermute(float* out, const float* y) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;  // over (b, h, t, d) of y
  const int d = idx % HS, t = (idx / HS) % T, h = (idx / (HS * T)) % NH, b = idx / (HS * T * NH);
  out[(b * T + t) * C + h * HS + d] = y[idx];
}
