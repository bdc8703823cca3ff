#!/usr/bin/env python3
"""Writes wgmma_probe.cu: one kernel per wgmma shape and type, each running `reps` wgmmas
whose shared-memory descriptors come from the launch's arguments (offset, LBO, SBO,
swizzle and base offset of A and B), so that launches.txt can probe how ncu counts
HGMMA/QGMMA shared reads for any layout without recompiling. Run it from this folder:
  python3 gen_wgmma_probe.py > wgmma_probe.cu && nvcc -arch=sm_90a -lineinfo -ptx wgmma_probe.cu
"""

# (kernel name, shape, d type, a type, b type, A from registers, imm-trans-a, imm-trans-b)
KERNELS = [
    ("ss_f16_n8", "m64n8k16", "f32", "f16", "f16", False, 0, 0),
    ("ss_f16_n16", "m64n16k16", "f32", "f16", "f16", False, 0, 0),
    ("ss_f16_n32", "m64n32k16", "f32", "f16", "f16", False, 0, 0),
    ("ss_f16_n64", "m64n64k16", "f32", "f16", "f16", False, 0, 0),
    ("ss_f16_n128", "m64n128k16", "f32", "f16", "f16", False, 0, 0),
    ("ss_f16_n256", "m64n256k16", "f32", "f16", "f16", False, 0, 0),
    ("ss_f16_n64_ta", "m64n64k16", "f32", "f16", "f16", False, 1, 0),
    ("ss_f16_n64_tb", "m64n64k16", "f32", "f16", "f16", False, 0, 1),
    ("ss_f16_n256_tb", "m64n256k16", "f32", "f16", "f16", False, 0, 1),
    ("ss_f16acc_n128", "m64n128k16", "f16", "f16", "f16", False, 0, 0),
    ("ss_bf16_n128", "m64n128k16", "f32", "bf16", "bf16", False, 0, 0),
    ("rs_f16_n64", "m64n64k16", "f32", "f16", "f16", True, 0, 0),
    ("rs_f16_n256", "m64n256k16", "f32", "f16", "f16", True, 0, 0),
    ("ss_tf32_n64", "m64n64k8", "f32", "tf32", "tf32", False, 0, 0),
    ("ss_e4m3_n128", "m64n128k32", "f32", "e4m3", "e4m3", False, 0, 0),
    ("ss_s8_n64", "m64n64k32", "s32", "s8", "s8", False, 0, 0),
]

HEAD = r'''// wgmma_probe.cu (written by gen_wgmma_probe.py): how ncu counts wgmma's shared-memory reads.
//
// Each kernel runs `reps` wgmma.mma_async of one shape and type per warpgroup (blockDim.x
// is 128 or 256: one or two warpgroups), A and B read through descriptors built from the
// launch's arguments: byte offset from a 1024-aligned base in dynamic shared memory, LBO,
// SBO, swizzle (0 none, 1 128B, 2 64B, 3 32B) and base offset. The shared memory is
// zeroed first (STS.128 by every thread: `smem_bytes` / 128 store wavefronts); each
// thread writes one accumulator to `out` at the end. corpus/tensor/README.md lists the
// launches and what each predicts. The values are zeros: only the addresses matter.
#include <cstdint>

extern __shared__ __align__(1024) unsigned char probe_smem[];

__device__ __forceinline__ uint32_t probe_base() {
  // The 1024-byte boundary at or after the dynamic shared memory's start (the launch asks
  // for 1 KiB more than it uses): swizzle phases are then the same on any GPU.
  const uint32_t a = static_cast<uint32_t>(__cvta_generic_to_shared(probe_smem));
  return (a + 1023u) & ~1023u;
}

__device__ __forceinline__ uint64_t probe_desc(uint32_t offset, uint32_t lbo, uint32_t sbo, uint32_t swizzle,
                                               uint32_t base_offset) {
  const uint32_t a = probe_base() + offset;
  return static_cast<uint64_t>((a & 0x3ffffu) >> 4) | (static_cast<uint64_t>((lbo & 0x3ffffu) >> 4) << 16) |
         (static_cast<uint64_t>((sbo & 0x3ffffu) >> 4) << 32) | (static_cast<uint64_t>(base_offset & 7u) << 49) |
         (static_cast<uint64_t>(swizzle & 3u) << 62);
}

__device__ __forceinline__ void probe_clear(uint32_t bytes) {
  const uint32_t base = probe_base() - static_cast<uint32_t>(__cvta_generic_to_shared(probe_smem));
  for (uint32_t i = threadIdx.x * 16; i < bytes; i += blockDim.x * 16)
    *reinterpret_cast<uint4*>(probe_smem + base + i) = make_uint4(0, 0, 0, 0);
  __syncthreads();
}

#define PROBE_PARAMS                                                                                     \
  float *out, int reps, uint32_t a_off, uint32_t a_lbo, uint32_t a_sbo, uint32_t a_swz, uint32_t b_off, \
      uint32_t b_lbo, uint32_t b_sbo, uint32_t b_swz, uint32_t base_offset, uint32_t smem_bytes
'''


def kernel(name, shape, d, a, b, rs, ta, tb):
    n = int(shape.split("n")[1].split("k")[0])
    regs = n // 4 if d == "f16" else n // 2
    cty, ctype = ("uint32_t", "r") if d in ("f16", "s32") else ("float", "f")
    floats = a not in ("s8", "u8")
    sixteen = a in ("f16", "bf16")
    dlist = ", ".join("%" + str(i) for i in range(regs))
    k = regs  # next operand index
    if rs:
        a_op = "{%%%d, %%%d, %%%d, %%%d}" % (k, k + 1, k + 2, k + 3)
        k += 4
    else:
        a_op = "%%%d" % k
        k += 1
    b_op = "%%%d" % k
    k += 1
    scale = "%%%d" % k
    tail = ", p"
    if floats:
        tail += ", 1, 1"
    if sixteen and not rs:
        tail += ", %d" % ta
    if sixteen:
        tail += ", %d" % tb
    inst = "wgmma.mma_async.sync.aligned.%s.%s.%s.%s {%s}, %s, %s%s;" % (shape, d, a, b, dlist, a_op, b_op, tail)
    outs = ", ".join('"+%s"(d[%d])' % (ctype, i) for i in range(regs))
    ins = ('"r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), ' if rs else '"l"(da), ') + '"l"(db), "r"(r)'
    s = "\n// %s: %s .%s.%s.%s, %s%s\n" % (name, shape, d, a, b, "A from registers" if rs else "A and B from descriptors",
                                        (", imm-trans-a %d, imm-trans-b %d" % (ta, tb)) if sixteen else "")
    s += "extern \"C\" __global__ void %s(PROBE_PARAMS) {\n" % name
    s += "  probe_clear(smem_bytes);\n"
    if not rs:
        s += "  const uint64_t da = probe_desc(a_off, a_lbo, a_sbo, a_swz, base_offset);\n"
    else:
        s += "  const uint32_t ra[4] = {threadIdx.x, threadIdx.x + 1, threadIdx.x + 2, threadIdx.x + 3};\n"
    s += "  const uint64_t db = probe_desc(b_off, b_lbo, b_sbo, b_swz, base_offset);\n"
    s += "  %s d[%d] = {};\n" % (cty, regs)
    s += "  for (int r = 0; r < reps; ++r) {\n"
    s += '    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");\n'
    s += '    asm volatile("{\\n.reg .pred p;\\nsetp.ne.b32 p, %s, 0;\\n%s\\n}"\n' % (scale, inst)
    s += "                 : %s\n" % outs
    s += "                 : %s);\n" % ins
    s += '    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");\n'
    s += '    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");\n'
    s += "  }\n"
    s += "  out[blockIdx.x * blockDim.x + threadIdx.x] = static_cast<float>(d[0]) + static_cast<float>(d[%d]);\n" % (regs - 1)
    s += "}\n"
    return s


print(HEAD + "".join(kernel(*k) for k in KERNELS), end="")
