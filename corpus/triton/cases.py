"""The launches of corpus/triton's kernels (kernels.py), shared by the Python tests
(tests/python) and the H200 measurement script (measure.py).

Each case: the kernel, its grid, its arguments as (kind, ...) tuples that either side makes
into tensors (stand-ins here, torch tensors on the GPU), and its meta-parameters.

    ("tensor", shape, dtype)    a tensor (contents: zeros here; on the GPU, random values,
                                which no address depends on; integer tensors are zeros on
                                both sides: locks and counters)
    ("desc", ("tensor", ...), block_shape)
                                a host TensorDescriptor (triton.tools.tensor_descriptor) over
                                that tensor with that block shape: tmap: here, a real one on
                                the GPU
    an int or a float           as it is

Kernels that build descriptors on the device (tl.make_tensor_descriptor) need Triton's
allocator on the GPU (measure.py sets one); here their global scratch is a buffer.
"""

import attention as A
import gemm as G
import kernels as K
import norms as L
from case_args import BH, D, MNK, N_CTX, PERSISTENT, QKV, ROWS, SM_SCALE, _desc, _t  # noqa: F401

CASES = {
    # 64K floats, 64 programs of 1024: x + y -> out.
    "triton_add": dict(fn=K.add_kernel, grid=(64,),
                       args=[("tensor", (65536,), "float32"), ("tensor", (65536,), "float32"),
                             ("tensor", (65536,), "float32"), 65536],
                       meta=dict(BLOCK=1024, num_warps=4)),
    # The tail case: n not a multiple of the block (masked lanes at the end).
    "triton_add_tail": dict(fn=K.add_kernel, grid=(4,),
                            args=[("tensor", (4000,), "float32"), ("tensor", (4000,), "float32"),
                                  ("tensor", (4000,), "float32"), 4000],
                            meta=dict(BLOCK=1024, num_warps=4)),
    # 64 rows of 1000 floats, padded to 1024 columns per program.
    "triton_softmax": dict(fn=K.softmax_kernel, grid=(64,),
                           args=[("tensor", (64, 1000), "float32"), ("tensor", (64, 1000), "float32"),
                                 1000, 1000, 1000],
                           meta=dict(BLOCK=1024, num_warps=8)),
    # 32 rows of 768 fp16 values.
    "triton_layernorm": dict(fn=K.layernorm_kernel, grid=(32,),
                             args=[("tensor", (32, 768), "float16"), ("tensor", (32, 768), "float16"),
                                   ("tensor", (768,), "float16"), ("tensor", (768,), "float16"),
                                   768, 768, 1e-5],
                             meta=dict(BLOCK=1024, num_warps=4)),
    # A 512 x 512 fp32 transpose in 64 x 64 tiles.
    "triton_transpose": dict(fn=K.transpose_kernel, grid=(8, 8),
                             args=[("tensor", (512, 512), "float32"), ("tensor", (512, 512), "float32"), 512, 512],
                             meta=dict(BM=64, BN=64, num_warps=4)),
    # 256^3 fp16 matmul, 128 x 128 x 64 tiles, wgmma (needs the Hopper work to emulate).
    "triton_matmul": dict(fn=K.matmul_kernel, grid=(2, 2),
                          args=[("tensor", (256, 256), "float16"), ("tensor", (256, 256), "float16"),
                                ("tensor", (256, 256), "float16"), 256, 256, 256, 256, 256, 256],
                          meta=dict(BM=128, BN=128, BK=64, num_warps=4, num_stages=3)),
    # 128^3 fp32 matmul without tensor cores (FMA), 32 x 32 x 32 tiles.
    "triton_matmul_fma": dict(fn=K.matmul_fma_kernel, grid=(4, 4),
                              args=[("tensor", (128, 128), "float32"), ("tensor", (128, 128), "float32"),
                                    ("tensor", (128, 128), "float32"), 128, 128, 128, 128, 128, 128],
                              meta=dict(BM=32, BN=32, BK=32, num_warps=4, num_stages=1)),
    # The autotune list's other two configs (kernels.py: matmul_fma_autotuned).
    "triton_matmul_fma_128x16": dict(fn=K.matmul_fma_kernel, grid=(1, 8),
                                     args=[("tensor", (128, 128), "float32"), ("tensor", (128, 128), "float32"),
                                           ("tensor", (128, 128), "float32"), 128, 128, 128, 128, 128, 128],
                                     meta=dict(BM=128, BN=16, BK=16, num_warps=4, num_stages=1)),
    "triton_matmul_fma_16x64": dict(fn=K.matmul_fma_kernel, grid=(8, 2),
                                    args=[("tensor", (128, 128), "float32"), ("tensor", (128, 128), "float32"),
                                          ("tensor", (128, 128), "float32"), 128, 128, 128, 128, 128, 128],
                                    meta=dict(BM=16, BN=64, BK=32, num_warps=4, num_stages=1)),
    # A stored transposed: the FMA operand staged conflict-free.
    "triton_matmul_fma_at": dict(fn=K.matmul_fma_at_kernel, grid=(4, 4),
                                 args=[("tensor", (128, 128), "float32"), ("tensor", (128, 128), "float32"),
                                       ("tensor", (128, 128), "float32"), 128, 128, 128, 128, 128, 128],
                                 meta=dict(BM=32, BN=32, BK=32, num_warps=4, num_stages=1)),
}


CASES.update({
    # Forward, pointer loads: 128 queries a program (grid 2 x 4), 64 keys a step.
    "triton_attn_fwd": dict(fn=A.attn_fwd_kernel, grid=(N_CTX // 128, BH),
                            args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"), SM_SCALE, N_CTX * D, N_CTX],
                            meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, CAUSAL=False, num_warps=8, num_stages=3)),
    "triton_attn_fwd_causal": dict(fn=A.attn_fwd_kernel, grid=(N_CTX // 128, BH),
                                   args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"), SM_SCALE, N_CTX * D, N_CTX],
                                   meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, CAUSAL=True, num_warps=8, num_stages=3)),
    # Forward through device-built TMA descriptors, then with the key loop warp-specialized
    # (on sm_90 Triton 3.6 specializes only with num_warps=4 and TMA loads: num_warps=8 is
    # silently not specialized, pointer loads fail in NVGPUWarpSpecialization).
    "triton_attn_fwd_tma": dict(fn=A.attn_fwd_desc_kernel, grid=(N_CTX // 128, BH),
                                args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), SM_SCALE, N_CTX, BH],
                                meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, WARP_SPECIALIZE=False,
                                          num_warps=8, num_stages=3)),
    "triton_attn_fwd_ws": dict(fn=A.attn_fwd_desc_kernel, grid=(N_CTX // 128, BH),
                               args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), SM_SCALE, N_CTX, BH],
                               meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, WARP_SPECIALIZE=True,
                                         num_warps=4, num_stages=3)),
    # Forward through block pointers, causal in two loops (below the diagonal, on it).
    "triton_attn_fwd_block_ptr": dict(fn=A.attn_fwd_block_ptr_kernel, grid=(N_CTX // 128, BH),
                                      args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"), SM_SCALE,
                                            N_CTX * D, D, N_CTX],
                                      meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, CAUSAL=True, num_warps=8,
                                                num_stages=3)),
    # Forward through host TensorDescriptors over (B*H*N_CTX, HEAD_DIM): fp16 causal (two
    # loops), fp8 e5m2 non-causal.
    "triton_attn_fwd_host_tma": dict(fn=A.attn_fwd_host_desc_kernel, grid=(N_CTX // 128, BH),
                                     args=[SM_SCALE, _t(ROWS, "float32"), _desc((BH * N_CTX, D), "float16", [128, D]),
                                           _desc((BH * N_CTX, D), "float16", [64, D]),
                                           _desc((BH * N_CTX, D), "float16", [64, D]),
                                           _desc((BH * N_CTX, D), "float16", [128, D]), N_CTX],
                                     meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, CAUSAL=True, num_warps=8,
                                               num_stages=3)),
    "triton_attn_fwd_fp8": dict(fn=A.attn_fwd_host_desc_kernel, grid=(N_CTX // 128, BH),
                                args=[SM_SCALE, _t(ROWS, "float32"), _desc((BH * N_CTX, D), "float8e5", [128, D]),
                                      _desc((BH * N_CTX, D), "float8e5", [64, D]),
                                      _desc((BH * N_CTX, D), "float8e5", [64, D]),
                                      _desc((BH * N_CTX, D), "float8e5", [128, D]), N_CTX],
                                meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, CAUSAL=False, num_warps=4, num_stages=3)),
    # Backward: delta = rowsum(O dO), then dK/dV (64 keys a program) and dQ (64 queries).
    "triton_attn_bwd_delta": dict(fn=A.attn_bwd_delta_kernel, grid=(N_CTX // 128, BH),
                                  args=[_t(QKV), _t(QKV), _t(ROWS, "float32"), N_CTX],
                                  meta=dict(HEAD_DIM=D, BLOCK_M=128, num_warps=4)),
    "triton_attn_bwd_dkdv": dict(fn=A.attn_bwd_dkdv_kernel, grid=(N_CTX // 64, BH),
                                 args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"), _t(ROWS, "float32"),
                                       _t(QKV), _t(QKV), SM_SCALE, N_CTX],
                                 meta=dict(HEAD_DIM=D, BLOCK_M=64, BLOCK_N=64, CAUSAL=False, num_warps=4, num_stages=2)),
    "triton_attn_bwd_dkdv_causal": dict(fn=A.attn_bwd_dkdv_kernel, grid=(N_CTX // 64, BH),
                                        args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"),
                                              _t(ROWS, "float32"), _t(QKV), _t(QKV), SM_SCALE, N_CTX],
                                        meta=dict(HEAD_DIM=D, BLOCK_M=64, BLOCK_N=64, CAUSAL=True, num_warps=4,
                                                  num_stages=2)),
    "triton_attn_bwd_dq": dict(fn=A.attn_bwd_dq_kernel, grid=(N_CTX // 64, BH),
                               args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"), _t(ROWS, "float32"),
                                     _t(QKV), SM_SCALE, N_CTX],
                               meta=dict(HEAD_DIM=D, BLOCK_M=64, BLOCK_N=64, CAUSAL=True, num_warps=4, num_stages=2)),
})

CASES.update({
    "triton_matmul_persistent": dict(fn=G.matmul_persistent_kernel, grid=(6,),
                                     args=[_t((MNK, MNK)), _t((MNK, MNK)), _t((MNK, MNK)), MNK, MNK, MNK],
                                     meta=dict(PERSISTENT)),
    "triton_matmul_persistent_tma": dict(fn=G.matmul_persistent_tma_kernel, grid=(6,),
                                         args=[_desc((MNK, MNK), "float16", [128, 64]),
                                               _desc((MNK, MNK), "float16", [128, 64]),
                                               _desc((MNK, MNK), "float16", [128, 128]), MNK, MNK, MNK],
                                         meta=dict(PERSISTENT)),
    "triton_matmul_persistent_devdesc": dict(fn=G.matmul_persistent_devdesc_kernel, grid=(6,),
                                             args=[_t((MNK, MNK)), _t((MNK, MNK)), _t((MNK, MNK)), MNK, MNK, MNK],
                                             meta=dict(PERSISTENT, FLATTEN=True)),
    # Flattened and marked warp_specialize (Triton 3.6 does not specialize it on sm_90: see
    # gemm.py), the epilogue in halves.
    "triton_matmul_persistent_ws": dict(fn=G.matmul_persistent_ws_kernel, grid=(6,),
                                        args=[_desc((MNK, MNK), "float16", [128, 64]),
                                              _desc((MNK, MNK), "float16", [128, 64]),
                                              _desc((MNK, MNK), "float16", [128, 64]), MNK, MNK, MNK],
                                        meta=dict(PERSISTENT, num_warps=4, SPLIT_EPILOGUE=True,
                                                  WARP_SPECIALIZE=True)),
    # The same kernel, not warp-specialized, fp8 e4m3 in and out, 128 x 128 x 128 tiles.
    "triton_matmul_persistent_fp8_tma": dict(fn=G.matmul_persistent_ws_kernel, grid=(6,),
                                             args=[_desc((MNK, MNK), "float8e4nv", [128, 128]),
                                                   _desc((MNK, MNK), "float8e4nv", [128, 128]),
                                                   _desc((MNK, MNK), "float8e4nv", [128, 64]), MNK, MNK, MNK],
                                             meta=dict(PERSISTENT, BK=128, SPLIT_EPILOGUE=True, WARP_SPECIALIZE=False)),
    # 512^3 through device descriptors, one tile a program (grid 4 x 4), the k loop
    # warp-specialized (3 warp groups).
    "triton_matmul_tma_ws": dict(fn=G.matmul_tma_ws_kernel, grid=(4, 4),
                                 args=[_t((MNK, MNK)), _t((MNK, MNK)), _t((MNK, MNK)), MNK, MNK, MNK],
                                 meta=dict(BM=128, BN=128, BK=64, num_warps=4, num_stages=3)),
    # Any size: 500 x 500 x 480 (tails in every dimension: 16 tiles, the last k step half
    # masked), fp16; then fp8 e4m3 in and out with B K-major (the tile loop as before).
    "triton_matmul_persistent_masked": dict(fn=G.matmul_persistent_masked_kernel, grid=(6,),
                                            args=[_t((500, 480)), _t((480, 500)), _t((500, 500)), 500, 500, 480,
                                                  480, 500, 1, 500],
                                            meta=dict(PERSISTENT)),
    "triton_matmul_persistent_fp8_out": dict(fn=G.matmul_persistent_masked_kernel, grid=(6,),
                                             args=[_t((500, 480), "float8e4nv"), _t((500, 480), "float8e4nv"),
                                                   _t((500, 500), "float8e4nv"), 500, 500, 480, 480, 1, 480, 500],
                                             meta=dict(PERSISTENT)),
    # fp8 e4m3: 256^3, 128 x 128 x 64 tiles (grid 2 x 2), through pointers and through TMA.
    "triton_matmul_fp8": dict(fn=G.matmul_fp8_kernel, grid=(2, 2),
                              args=[_t((256, 256), "float8e4nv"), _t((256, 256), "float8e4nv"), _t((256, 256)),
                                    256, 256, 256],
                              meta=dict(BM=128, BN=128, BK=64, num_warps=4, num_stages=3)),
    "triton_matmul_fp8_tma": dict(fn=G.matmul_fp8_tma_kernel, grid=(2, 2),
                                  args=[_desc((256, 256), "float8e4nv", [128, 128]),
                                        _desc((256, 256), "float8e4nv", [128, 128]),
                                        _desc((256, 256), "float16", [128, 128]), 256],
                                  meta=dict(BM=128, BN=128, BK=128, num_warps=4, num_stages=3)),
})

# Layernorm backward: 64 rows of 768 fp16, partial dw/db in GROUP = 8 rows under 8 locks
# (Lock: 8 locks then 8 counts, int32 zeros), then their column sums, 128 columns a program.
LN_M, LN_N, GROUP = 64, 768, 8
CASES.update({
    "triton_layernorm_bwd_dx": dict(fn=L.layernorm_bwd_dx_kernel, grid=(LN_M,),
                                    args=[_t((LN_M, LN_N)), _t((LN_M, LN_N)), _t((GROUP, LN_N)), _t((GROUP, LN_N)),
                                          _t((LN_M, LN_N)), _t((LN_N,)), _t((LN_M,), "float32"), _t((LN_M,), "float32"),
                                          _t((2 * GROUP,), "int32"), LN_N, LN_N],
                                    meta=dict(GROUP=GROUP, BLOCK=1024, num_warps=8)),
    "triton_layernorm_bwd_dwdb": dict(fn=L.layernorm_bwd_dwdb_kernel, grid=(LN_N // 128,),
                                      args=[_t((GROUP, LN_N)), _t((GROUP, LN_N)), _t((LN_N,)), _t((LN_N,)), GROUP, LN_N],
                                      meta=dict(BLOCK_M=8, BLOCK_N=128, num_warps=4)),
})


def make_args(case, make_tensor, make_desc=None):
    """The case's arguments with each ("tensor", shape, dtype) made by make_tensor(shape, dtype)
    and each ("desc", tensor, block_shape) by make_desc(tensor made, block_shape) (default:
    TensorDescriptor.from_tensor)."""
    if make_desc is None:
        def make_desc(t, block):
            from triton.tools.tensor_descriptor import TensorDescriptor
            return TensorDescriptor.from_tensor(t, list(block))

    def made(a):
        if isinstance(a, tuple) and a[0] == "tensor":
            return make_tensor(a[1], a[2])
        if isinstance(a, tuple) and a[0] == "desc":
            return make_desc(made(a[1]), a[2])
        return a
    return [made(a) for a in case["args"]]


# The variants (variant_cases.py): the kernels above and variants.py's in other configurations.
from variant_cases import VARIANT_CASES  # noqa: E402

CASES.update(VARIANT_CASES)
