// atomics_global.cu: every global atomic form nvcc 13 emits for sm_90, one per source line, so
// that the H200's Source page gives each one's requests and sectors (issue 13 item 4). Block
// 128, grid 4; `w` points to 4 KiB of words per kind, zeroed by the launch (ptxlaunch fills
// buf: with random bytes: the values change, no address does). Lane l of a warp uses word
// l % 8 (4 lanes share each word) unless the line says otherwise.
//
// Predictions (SASS -> ncu op): RED for an unused result of add/min/max/and/or/xor/inc/dec,
// ATOMG (op_atom) for a used result and for every cas and exch (no RED form), ATOM (generic,
// op_atom) for the f16x2/bf16x2 adds of cuda_fp16.h (generic addresses), a CAS loop (LD + ATOM.CAS
// rounds, op_ld + op_atom) for 16-bit adds and 16-bit cas, and one elected lane (REDUX or
// a warp scan) for uniform addresses.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda/atomic>

extern "C" __global__ void atom_global_forms(int* wi, unsigned* wu, unsigned long long* wl, float* wf,
                                             double* wd, __half2* wh2, __nv_bfloat162* wb2, __half* wh,
                                             float2* wf2, float4* wf4, int* out) {
  const int t = threadIdx.x, k = t % 8;
  int r = 0;
  atomicAdd(&wi[k], 1);                                    // RED.ADD
  r += atomicAdd(&wi[64 + k], 3);                          // ATOMG.ADD
  atomicAdd(&wf[k], 1.0f);                                 // RED.ADD.F32
  r += static_cast<int>(atomicAdd(&wf[64 + k], 1.0f));     // ATOMG.ADD.F32
  atomicAdd(&wd[k], 1.0);                                  // RED.ADD.F64 (8 bytes)
  r += static_cast<int>(atomicAdd(&wd[64 + k], 1.0));      // ATOMG.ADD.F64
  r += static_cast<int>(atomicAdd(&wl[k], 1ull));          // ATOMG.ADD.64
  atomicAdd(&wh2[k], __float2half2_rn(1.0f));              // ATOM.ADD.F16x2 (generic)
  atomicAdd(&wb2[k], __float2bfloat162_rn(1.0f));          // ATOM.ADD.BF16x2 (generic)
  atomicAdd(&wh[t % 16], __float2half(1.0f));              // CAS loop on the 32-bit word: 2 halves a word
  atomicAdd(&wf2[k], make_float2(1.0f, 2.0f));             // RED.ADD.F32x2 (8 bytes)
  atomicAdd(&wf4[k], make_float4(1.0f, 2.0f, 3.0f, 4.0f)); // RED.ADD.F32x4 (16 bytes)
  r += atomicCAS(&wi[128 + k], 0, t);                      // ATOMG.CAS
  atomicCAS(&wi[192 + k], 0, t);                           // ATOMG.CAS, result unused: still op_atom
  atomicExch(&wi[256 + k], t);                             // ATOMG.EXCH, result unused: still op_atom
  r += atomicExch(&wi[320 + k], t);                        // ATOMG.EXCH
  r += atomicMin(&wi[384 + k], t);                         // ATOMG.MIN.S32
  atomicMax(&wu[k], static_cast<unsigned>(t));             // RED.MAX
  r += atomicInc(&wu[64 + k], 100u);                       // ATOMG.INC
  atomicOr(&wi[448 + k], t);                               // RED.OR
  r += static_cast<int>(atomicMax(&wl[64 + k], static_cast<unsigned long long>(t)));  // ATOMG.MAX.64
  atomicAdd(&wi[512], 1);                                  // uniform address: one elected lane's RED (popc)
  atomicMin(&wi[513], t);                                  // uniform: REDUX.MIN + one lane's RED
  r += atomicAdd(&wi[514], t);                             // uniform, used: a scan, lane 31's ATOMG
  atomicAdd_block(&wi[576 + k], 1);                        // .cta scope: RED.ADD.STRONG.SM
  atomicAdd_system(&wi[640 + k], 1);                       // .sys scope: RED.ADD.STRONG.SYS
  cuda::atomic_ref<int, cuda::thread_scope_device> ref(wi[704 + k]);
  r += ref.fetch_add(1, cuda::memory_order_acq_rel);       // generic atom.acq_rel.gpu: ATOM (op_atom)
  ref.fetch_add(1, cuda::memory_order_relaxed);            // generic, unused: still ATOM (op_atom)
  r += static_cast<int>(atomicCAS(reinterpret_cast<unsigned short*>(&wu[128 + k]), 0, 1));  // 16-bit cas: CAS loop
  out[blockIdx.x * 128 + t] = r;
}
