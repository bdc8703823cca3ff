// PTX special registers and predefined identifiers (issue 13 item 1), used the way real
// kernels use them. None decides an address except through values warpscope can know
// (lane masks, grid sizes, the dynamic shared memory size); clocks and SM ids are only stored.
//
// compact_lanemask: stream compaction within warps through %lanemask_lt: each lane keeps
//   x[i] when its flag (from data/masks_mixed.bin, bit lane of masks[warp % 4]) is set and
//   writes it at its rank among the warp's kept lanes (__popc(ballot & %lanemask_lt)), into
//   the warp's own 32-slot row. Grid 64 x 256.
// grid_info: a persistent grid-stride loop sized from %nctaid and %ntid (gridDim, blockDim)
//   and warpSize (WARP_SZ), plus one record per block of %smid, %nsmid, %warpid, %clock64 and
//   %globaltimer (values only). Grid 128 x 256 over 262144 floats.
// dyn_smem_fill: zero-fills its dynamic shared memory, its size read from
//   %dynamic_smem_size, and reads %total_smem_size and %aggr_smem_size (values only); then
//   sums the buffer. Launched with 12288 bytes of dynamic shared memory. Grid 64 x 256.

extern "C" __global__ void compact_lanemask(float* out, unsigned* counts, const float* x, const unsigned* masks) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x & 31, warp = i >> 5;
  const bool keep = (masks[warp & 3] >> lane) & 1u;
  const unsigned ballot = __ballot_sync(0xffffffffu, keep);
  unsigned lt;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  if (keep) out[warp * 32 + __popc(ballot & lt)] = x[i];
  if (lane == 0) counts[warp] = __popc(ballot);
}

struct BlockRecord { unsigned smid, nsmid, warpid, pad; unsigned long long clock, time; };

extern "C" __global__ void grid_info(float* y, BlockRecord* records, const float* x, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    y[i] = x[i] * static_cast<float>(warpSize);
  if (threadIdx.x == 0) {
    BlockRecord r;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(r.smid));
    asm volatile("mov.u32 %0, %%nsmid;" : "=r"(r.nsmid));
    asm volatile("mov.u32 %0, %%warpid;" : "=r"(r.warpid));
    r.pad = 0;
    r.clock = clock64();
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(r.time));
    records[blockIdx.x] = r;
  }
}

extern "C" __global__ void dyn_smem_fill(float* out, unsigned* sizes) {
  extern __shared__ float dyn[];
  unsigned dyn_bytes, total, aggr;
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn_bytes));
  asm("mov.u32 %0, %%total_smem_size;" : "=r"(total));
  asm("mov.u32 %0, %%aggr_smem_size;" : "=r"(aggr));
  const unsigned words = dyn_bytes / 4;
  for (unsigned k = threadIdx.x; k < words; k += blockDim.x) dyn[k] = static_cast<float>(k);
  __syncthreads();
  float s = 0.0f;
  for (unsigned k = threadIdx.x; k < words; k += blockDim.x) s += dyn[(k * 17u) % words];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
  if (threadIdx.x == 0) {
    sizes[3 * blockIdx.x] = dyn_bytes;
    sizes[3 * blockIdx.x + 1] = total;
    sizes[3 * blockIdx.x + 2] = aggr;
  }
}
