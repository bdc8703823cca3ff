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


def _t(shape, dtype="float16"):
    return ("tensor", shape, dtype)


def _desc(shape, dtype, block):
    return ("desc", _t(shape, dtype), block)


# Attention: B*H = 4 heads of N_CTX = 256, HEAD_DIM = 64, fp16; M (log2-sum-exp2) and Delta fp32.
BH, N_CTX, D = 4, 256, 64
QKV = (BH, N_CTX, D)
ROWS = (BH, N_CTX)
SM_SCALE = 0.125
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

# GEMMs: 512^3 fp16, 128 x 128 x 64 tiles (16 output tiles) on 6 persistent programs (2 or 3
# tiles each); B given as (N, K).
MNK = 512
PERSISTENT = dict(NUM_SMS=6, BM=128, BN=128, BK=64, GROUP_M=4, num_warps=8, num_stages=3)
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


# Variants (variants.py and the kernels above in other configurations): the shapes, dtypes,
# tile sizes, warp counts and stage counts Triton's users pick, to find what the first set
# misses.
import variants as V  # noqa: E402

CASES.update({
    "triton_v_add_bf16_tail": dict(fn=K.add_kernel, grid=(49,),
                                   args=[_t((100000,), "bfloat16"), _t((100000,), "bfloat16"),
                                         _t((100000,), "bfloat16"), 100000],
                                   meta=dict(BLOCK=2048, num_warps=8)),
    "triton_v_add_fp16_w2": dict(fn=K.add_kernel, grid=(12,),
                                 args=[_t((3000,)), _t((3000,)), _t((3000,)), 3000],
                                 meta=dict(BLOCK=256, num_warps=2)),
    "triton_v_bias_gelu": dict(fn=V.bias_gelu_kernel, grid=(5, 6),
                               args=[_t((300, 700)), _t((700,)), _t((300, 700)), 300, 700, 700],
                               meta=dict(BM=64, BN=128, num_warps=4)),
    "triton_v_softmax_rows_s3": dict(fn=V.softmax_rows_kernel, grid=(16,),
                                     args=[_t((128, 781), "float32"), _t((128, 781), "float32"), 781, 781, 128, 781],
                                     meta=dict(BLOCK=1024, STAGES=3, num_warps=4)),
    "triton_v_softmax_rows_fp16_s2": dict(fn=V.softmax_rows_kernel, grid=(24,),
                                          args=[_t((96, 2000)), _t((96, 2000)), 2000, 2000, 96, 2000],
                                          meta=dict(BLOCK=2048, STAGES=2, num_warps=8)),
    "triton_v_softmax_w16": dict(fn=K.softmax_kernel, grid=(32,),
                                 args=[_t((32, 4096), "float32"), _t((32, 4096), "float32"), 4096, 4096, 4096],
                                 meta=dict(BLOCK=4096, num_warps=16)),
    "triton_v_layernorm_chunked_bf16": dict(fn=V.layernorm_chunked_kernel, grid=(16,),
                                            args=[_t((16, 3000), "bfloat16"), _t((16, 3000), "bfloat16"),
                                                  _t((3000,), "bfloat16"), _t((3000,), "bfloat16"),
                                                  _t((16,), "float32"), _t((16,), "float32"), 3000, 3000, 1e-5],
                                            meta=dict(BLOCK=1024, num_warps=8)),
    "triton_v_layernorm_w2": dict(fn=K.layernorm_kernel, grid=(64,),
                                  args=[_t((64, 500)), _t((64, 500)), _t((500,)), _t((500,)), 500, 500, 1e-5],
                                  meta=dict(BLOCK=512, num_warps=2)),
    "triton_v_layernorm_bwd_dx_g16": dict(fn=L.layernorm_bwd_dx_kernel, grid=(48,),
                                          args=[_t((48, 1024)), _t((48, 1024)), _t((16, 1024)), _t((16, 1024)),
                                                _t((48, 1024)), _t((1024,)), _t((48,), "float32"),
                                                _t((48,), "float32"), _t((32,), "int32"), 1024, 1024],
                                          meta=dict(GROUP=16, BLOCK=1024, num_warps=4)),
    "triton_v_layernorm_bwd_dwdb_32x64": dict(fn=L.layernorm_bwd_dwdb_kernel, grid=(16,),
                                              args=[_t((16, 1024)), _t((16, 1024)), _t((1024,)), _t((1024,)), 16, 1024],
                                              meta=dict(BLOCK_M=32, BLOCK_N=64, num_warps=4)),
    "triton_v_matmul_bf16_64x128x32_s4": dict(fn=K.matmul_kernel, grid=(4, 2),
                                              args=[_t((256, 256), "bfloat16"), _t((256, 256), "bfloat16"),
                                                    _t((256, 256), "bfloat16"), 256, 256, 256, 256, 256, 256],
                                              meta=dict(BM=64, BN=128, BK=32, num_warps=4, num_stages=4)),
    "triton_v_matmul_128x256x64_w8": dict(fn=K.matmul_kernel, grid=(2, 1),
                                          args=[_t((256, 256)), _t((256, 256)), _t((256, 256)),
                                                256, 256, 256, 256, 256, 256],
                                          meta=dict(BM=128, BN=256, BK=64, num_warps=8, num_stages=3)),
    "triton_v_matmul_tf32": dict(fn=V.matmul_tf32_kernel, grid=(2, 2),
                                 args=[_t((256, 256), "float32"), _t((256, 256), "float32"),
                                       _t((256, 256), "float32"), 256, 256, 256],
                                 meta=dict(BM=128, BN=128, BK=32, num_warps=8, num_stages=3)),
    "triton_v_matmul_masked_fp16": dict(fn=V.matmul_masked_kernel, grid=(25,),
                                        args=[_t((300, 200)), _t((200, 310)), _t((300, 310)), _t((310,)),
                                              300, 310, 200, 200, 310, 310],
                                        meta=dict(BM=64, BN=64, BK=32, GROUP_M=8, num_warps=4, num_stages=3)),
    "triton_v_matmul_masked_bf16_128": dict(fn=V.matmul_masked_kernel, grid=(6,),
                                            args=[_t((300, 200), "bfloat16"), _t((200, 310), "bfloat16"),
                                                  _t((300, 310), "bfloat16"), _t((310,), "bfloat16"),
                                                  300, 310, 200, 200, 310, 310],
                                            meta=dict(BM=128, BN=128, BK=64, GROUP_M=8, num_warps=8, num_stages=3)),
    "triton_v_matmul_fp8_e5m2_bk128": dict(fn=G.matmul_fp8_kernel, grid=(2, 2),
                                           args=[_t((256, 256), "float8e5"), _t((256, 256), "float8e5"), _t((256, 256)),
                                                 256, 256, 256],
                                           meta=dict(BM=128, BN=128, BK=128, num_warps=8, num_stages=3)),
    "triton_v_matmul_tma_bf16": dict(fn=V.matmul_tma_kernel, grid=(2, 2),
                                     args=[_desc((256, 512), "bfloat16", [128, 64]), _desc((512, 256), "bfloat16", [64, 128]),
                                           _desc((256, 256), "bfloat16", [128, 128]), 512],
                                     meta=dict(BM=128, BN=128, BK=64, num_warps=4, num_stages=4)),
    "triton_v_matmul_persistent_128x256": dict(fn=G.matmul_persistent_kernel, grid=(4,),
                                               args=[_t((MNK, MNK)), _t((MNK, MNK)), _t((MNK, MNK)), MNK, MNK, MNK],
                                               meta=dict(PERSISTENT, NUM_SMS=4, BN=256, num_stages=3)),
    "triton_v_matmul_persistent_tma_s4": dict(fn=G.matmul_persistent_tma_kernel, grid=(8,),
                                              args=[_desc((MNK, MNK), "float16", [128, 64]),
                                                    _desc((MNK, MNK), "float16", [64, 64]),
                                                    _desc((MNK, MNK), "float16", [128, 64]), MNK, MNK, MNK],
                                              meta=dict(PERSISTENT, NUM_SMS=8, BN=64, num_warps=4, num_stages=4)),
    "triton_v_matmul_devdesc_noflat": dict(fn=G.matmul_persistent_devdesc_kernel, grid=(6,),
                                           args=[_t((MNK, MNK)), _t((MNK, MNK)), _t((MNK, MNK)), MNK, MNK, MNK],
                                           meta=dict(PERSISTENT, FLATTEN=False, num_warps=4)),
    "triton_v_attn_fwd_d128": dict(fn=A.attn_fwd_kernel, grid=(2, 2),
                                   args=[_t((2, 256, 128)), _t((2, 256, 128)), _t((2, 256, 128)), _t((2, 256, 128)),
                                         _t((2, 256), "float32"), SM_SCALE, 256 * 128, 256],
                                   meta=dict(HEAD_DIM=128, BLOCK_M=128, BLOCK_N=64, CAUSAL=False, num_warps=8,
                                             num_stages=2)),
    "triton_v_attn_any_bf16_causal": dict(fn=V.attn_fwd_any_kernel, grid=(3, 4),
                                          args=[_t((4, 200, 64), "bfloat16"), _t((4, 200, 64), "bfloat16"),
                                                _t((4, 200, 64), "bfloat16"), _t((4, 200, 64), "bfloat16"), SM_SCALE, 200],
                                          meta=dict(HEAD_DIM=64, BLOCK_M=64, BLOCK_N=32, CAUSAL=True, num_warps=4,
                                                    num_stages=3)),
    "triton_v_attn_any_fp16_d32": dict(fn=V.attn_fwd_any_kernel, grid=(2, 4),
                                       args=[_t((4, 256, 32)), _t((4, 256, 32)), _t((4, 256, 32)), _t((4, 256, 32)),
                                             SM_SCALE, 256],
                                       meta=dict(HEAD_DIM=32, BLOCK_M=128, BLOCK_N=128, CAUSAL=False, num_warps=8,
                                                 num_stages=2)),
    "triton_v_attn_fwd_tma_d128": dict(fn=A.attn_fwd_desc_kernel, grid=(2, 2),
                                       args=[_t((2, 256, 128)), _t((2, 256, 128)), _t((2, 256, 128)), _t((2, 256, 128)),
                                             SM_SCALE, 256, 2],
                                       meta=dict(HEAD_DIM=128, BLOCK_M=128, BLOCK_N=64, WARP_SPECIALIZE=False,
                                                 num_warps=8, num_stages=2)),
    "triton_v_attn_fwd_ws_bn128": dict(fn=A.attn_fwd_desc_kernel, grid=(2, 4),
                                       args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), SM_SCALE, N_CTX, BH],
                                       meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=128, WARP_SPECIALIZE=True,
                                                 num_warps=4, num_stages=2)),
    "triton_v_attn_host_tma_noncausal": dict(fn=A.attn_fwd_host_desc_kernel, grid=(N_CTX // 64, BH),
                                             args=[SM_SCALE, _t(ROWS, "float32"),
                                                   _desc((BH * N_CTX, D), "float16", [64, D]),
                                                   _desc((BH * N_CTX, D), "float16", [128, D]),
                                                   _desc((BH * N_CTX, D), "float16", [128, D]),
                                                   _desc((BH * N_CTX, D), "float16", [64, D]), N_CTX],
                                             meta=dict(HEAD_DIM=D, BLOCK_M=64, BLOCK_N=128, CAUSAL=False, num_warps=4,
                                                       num_stages=2)),
    "triton_v_attn_bwd_dkdv_128x32": dict(fn=A.attn_bwd_dkdv_kernel, grid=(N_CTX // 128, BH),
                                          args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"),
                                                _t(ROWS, "float32"), _t(QKV), _t(QKV), SM_SCALE, N_CTX],
                                          meta=dict(HEAD_DIM=D, BLOCK_M=32, BLOCK_N=128, CAUSAL=True, num_warps=8,
                                                    num_stages=3)),
    "triton_v_attn_bwd_dq_128": dict(fn=A.attn_bwd_dq_kernel, grid=(N_CTX // 128, BH),
                                     args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"), _t(ROWS, "float32"),
                                           _t(QKV), SM_SCALE, N_CTX],
                                     meta=dict(HEAD_DIM=D, BLOCK_M=128, BLOCK_N=32, CAUSAL=False, num_warps=8,
                                               num_stages=2)),
})

# Probes of the variants that differed (2026-12-02): the same kernels with more k steps (the
# pipelined loads past the last k step are the same count, those that read are more), and the
# fp16 softmax with aligned rows, with aligned rows and a masked tail, and with more rows.
CASES.update({
    "triton_v_matmul_bf16_64x128x32_s4_k512": dict(fn=K.matmul_kernel, grid=(4, 2),
                                                   args=[_t((256, 512), "bfloat16"), _t((512, 256), "bfloat16"),
                                                         _t((256, 256), "bfloat16"), 256, 256, 512, 512, 256, 256],
                                                   meta=dict(BM=64, BN=128, BK=32, num_warps=4, num_stages=4)),
    "triton_v_matmul_fp8_k512": dict(fn=G.matmul_fp8_kernel, grid=(2, 2),
                                     args=[_t((256, 512), "float8e4nv"), _t((256, 512), "float8e4nv"), _t((256, 256)),
                                           256, 256, 512],
                                     meta=dict(BM=128, BN=128, BK=64, num_warps=4, num_stages=3)),
    "triton_v_softmax_rows_fp16_aligned": dict(fn=V.softmax_rows_kernel, grid=(24,),
                                               args=[_t((96, 2048)), _t((96, 2048)), 2048, 2048, 96, 2048],
                                               meta=dict(BLOCK=2048, STAGES=2, num_warps=8)),
    "triton_v_softmax_rows_fp16_stride2048": dict(fn=V.softmax_rows_kernel, grid=(24,),
                                                  args=[_t((96, 2048)), _t((96, 2048)), 2048, 2048, 96, 2000],
                                                  meta=dict(BLOCK=2048, STAGES=2, num_warps=8)),
    "triton_v_softmax_rows_fp16_192": dict(fn=V.softmax_rows_kernel, grid=(24,),
                                           args=[_t((192, 2000)), _t((192, 2000)), 2000, 2000, 192, 2000],
                                           meta=dict(BLOCK=2048, STAGES=2, num_warps=8)),
})

# Variants, second round (2026-12-02): the tutorial-style wrapped GEMM, split-K with atomics,
# several rows a program, RMS norm, cross entropy, rotary embedding, and more configurations of
# the first set's kernels.
CASES.update({
    "triton_v2_matmul_wrap_fp16": dict(fn=V.matmul_wrap_kernel, grid=(12,),
                                       args=[_t((300, 250)), _t((250, 200)), _t((300, 200)), 300, 200, 250,
                                             250, 1, 200, 1, 200, 1],
                                       meta=dict(BM=128, BN=64, BK=32, GROUP_M=8, ACT=True, num_warps=4, num_stages=3)),
    "triton_v2_matmul_wrap_bt": dict(fn=V.matmul_wrap_kernel, grid=(4,),
                                     args=[_t((256, 256)), _t((256, 256)), _t((256, 256)), 256, 256, 256,
                                           256, 1, 1, 256, 256, 1],
                                     meta=dict(BM=128, BN=128, BK=64, GROUP_M=8, ACT=False, num_warps=8, num_stages=4)),
    "triton_v2_matmul_wrap_fp8": dict(fn=V.matmul_wrap_kernel, grid=(4,),
                                      args=[_t((256, 256), "float8e4nv"), _t((256, 256), "float8e4nv"), _t((256, 256)),
                                            256, 256, 256, 256, 1, 1, 256, 256, 1],
                                      meta=dict(BM=128, BN=128, BK=128, GROUP_M=8, ACT=False, num_warps=8, num_stages=3)),
    "triton_v2_matmul_splitk": dict(fn=V.matmul_splitk_kernel, grid=(2, 2, 4),
                                    args=[_t((128, 512)), _t((512, 128)), _t((128, 128), "float32"), 128, 128, 512],
                                    meta=dict(BM=64, BN=64, BK=32, SPLIT=4, num_warps=4, num_stages=2)),
    "triton_v2_softmax_block_rows": dict(fn=V.softmax_block_rows_kernel, grid=(13,),
                                         args=[_t((100, 100), "float32"), _t((100, 100), "float32"), 100, 100],
                                         meta=dict(BM=8, BN=128, num_warps=4)),
    "triton_v2_rmsnorm": dict(fn=V.rmsnorm_kernel, grid=(32,),
                              args=[_t((32, 4096)), _t((32, 4096)), _t((4096,)), 4096, 4096, 1e-6],
                              meta=dict(BLOCK=4096, num_warps=8)),
    "triton_v2_cross_entropy": dict(fn=V.cross_entropy_kernel, grid=(8,),
                                    args=[_t((8, 5000)), _t((8,), "int32"), _t((8,), "float32"), 5000, 5000],
                                    meta=dict(BLOCK=1024, num_warps=4)),
    "triton_v2_rope": dict(fn=V.rope_kernel, grid=(64,),
                           args=[_t((64, 8, 64)), _t((64, 32), "float32"), _t((64, 32), "float32"), _t((64, 8, 64)), 64],
                           meta=dict(HEADS=8, HALF=32, num_warps=2)),
    "triton_v2_transpose_fp16_32": dict(fn=K.transpose_kernel, grid=(8, 16),
                                        args=[_t((256, 512)), _t((512, 256)), 256, 512],
                                        meta=dict(BM=32, BN=32, num_warps=2)),
    "triton_v2_layernorm_bwd_dx_bf16": dict(fn=L.layernorm_bwd_dx_kernel, grid=(32,),
                                            args=[_t((32, 640), "bfloat16"), _t((32, 640), "bfloat16"),
                                                  _t((4, 640), "bfloat16"), _t((4, 640), "bfloat16"),
                                                  _t((32, 640), "bfloat16"), _t((640,), "bfloat16"),
                                                  _t((32,), "float32"), _t((32,), "float32"), _t((8,), "int32"), 640, 640],
                                            meta=dict(GROUP=4, BLOCK=1024, num_warps=8)),
    "triton_v2_attn_bwd_dkdv_d32": dict(fn=A.attn_bwd_dkdv_kernel, grid=(4, 2),
                                        args=[_t((2, 256, 32)), _t((2, 256, 32)), _t((2, 256, 32)), _t((2, 256, 32)),
                                              _t((2, 256), "float32"), _t((2, 256), "float32"), _t((2, 256, 32)),
                                              _t((2, 256, 32)), SM_SCALE, 256],
                                        meta=dict(HEAD_DIM=32, BLOCK_M=32, BLOCK_N=64, CAUSAL=False, num_warps=4,
                                                  num_stages=3)),
    "triton_v2_attn_fwd_causal_bm64": dict(fn=A.attn_fwd_kernel, grid=(4, 4),
                                           args=[_t(QKV), _t(QKV), _t(QKV), _t(QKV), _t(ROWS, "float32"), SM_SCALE,
                                                 N_CTX * D, N_CTX],
                                           meta=dict(HEAD_DIM=D, BLOCK_M=64, BLOCK_N=32, CAUSAL=True, num_warps=4,
                                                     num_stages=4)),
    "triton_v2_attn_any_fp16_d128_ws": dict(fn=A.attn_fwd_desc_kernel, grid=(2, 2),
                                            args=[_t((2, 256, 128)), _t((2, 256, 128)), _t((2, 256, 128)),
                                                  _t((2, 256, 128)), SM_SCALE, 256, 2],
                                            meta=dict(HEAD_DIM=128, BLOCK_M=128, BLOCK_N=64, WARP_SPECIALIZE=True,
                                                      num_warps=4, num_stages=2)),
    "triton_v2_matmul_persistent_ws_bn256": dict(fn=G.matmul_persistent_ws_kernel, grid=(4,),
                                                 args=[_desc((MNK, MNK), "float16", [128, 64]),
                                                       _desc((MNK, MNK), "float16", [256, 64]),
                                                       _desc((MNK, MNK), "float16", [128, 128]), MNK, MNK, MNK],
                                                 meta=dict(PERSISTENT, NUM_SMS=4, BN=256, num_warps=8, SPLIT_EPILOGUE=True,
                                                           WARP_SPECIALIZE=False)),
    "triton_v2_matmul_tma_ws_bf16": dict(fn=G.matmul_tma_ws_kernel, grid=(2, 4),
                                         args=[_t((256, 512), "bfloat16"), _t((512, 512), "bfloat16"),
                                               _t((256, 512), "bfloat16"), 256, 512, 512],
                                         meta=dict(BM=128, BN=128, BK=64, num_warps=4, num_stages=4)),
})

# Variants, third round (2026-12-02): configurations from a local sweep of the kernels above
# (every one runs in warpscope), picked for what they change: tf32 4-byte copies with the k tail
# masked, short and odd rows, a 16-wide head, fp8 and bf16 device descriptors.
CASES.update({
    "triton_v3_wrap_tf32_128x64x32": dict(fn=V.matmul_wrap_kernel, grid=(12,),
                                          args=[_t((300, 250), "float32"), _t((250, 200), "float32"), _t((300, 200), "float32"),
                                                300, 200, 250, 250, 1, 200, 1, 200, 1],
                                          meta=dict(BM=128, BN=64, BK=32, GROUP_M=4, ACT=True, num_warps=4, num_stages=4)),
    "triton_v3_wrap_tf32_32x32x32": dict(fn=V.matmul_wrap_kernel, grid=(70,),
                                         args=[_t((300, 250), "float32"), _t((250, 200), "float32"), _t((300, 200), "float32"),
                                               300, 200, 250, 250, 1, 200, 1, 200, 1],
                                         meta=dict(BM=32, BN=32, BK=32, GROUP_M=4, ACT=True, num_warps=2, num_stages=2)),
    "triton_v3_fp8_e5m2_64x256x64": dict(fn=G.matmul_fp8_kernel, grid=(4, 1),
                                         args=[_t((256, 256), "float8e5"), _t((256, 256), "float8e5"), _t((256, 256)),
                                               256, 256, 256],
                                         meta=dict(BM=64, BN=256, BK=64, num_warps=8, num_stages=3)),
    "triton_v3_attn_any_bf16_d16": dict(fn=V.attn_fwd_any_kernel, grid=(4, 2),
                                        args=[_t((2, 200, 16), "bfloat16"), _t((2, 200, 16), "bfloat16"),
                                              _t((2, 200, 16), "bfloat16"), _t((2, 200, 16), "bfloat16"), SM_SCALE, 200],
                                        meta=dict(HEAD_DIM=16, BLOCK_M=64, BLOCK_N=32, CAUSAL=True, num_warps=4, num_stages=2)),
    "triton_v3_attn_any_fp16_d128_causal": dict(fn=V.attn_fwd_any_kernel, grid=(2, 2),
                                                args=[_t((2, 200, 128)), _t((2, 200, 128)), _t((2, 200, 128)),
                                                      _t((2, 200, 128)), SM_SCALE, 200],
                                                meta=dict(HEAD_DIM=128, BLOCK_M=128, BLOCK_N=32, CAUSAL=True, num_warps=8,
                                                          num_stages=2)),
    "triton_v3_softmax_rows_fp32_33": dict(fn=V.softmax_rows_kernel, grid=(8,),
                                           args=[_t((40, 33), "float32"), _t((40, 33), "float32"), 33, 33, 40, 33],
                                           meta=dict(BLOCK=64, STAGES=4, num_warps=2)),
    "triton_v3_softmax_rows_bf16_3000": dict(fn=V.softmax_rows_kernel, grid=(8,),
                                             args=[_t((40, 3000), "bfloat16"), _t((40, 3000), "bfloat16"), 3000, 3000, 40, 3000],
                                             meta=dict(BLOCK=4096, STAGES=3, num_warps=8)),
    "triton_v3_layernorm_chunked_fp32": dict(fn=V.layernorm_chunked_kernel, grid=(8,),
                                             args=[_t((8, 3000), "float32"), _t((8, 3000), "float32"), _t((3000,), "float32"),
                                                   _t((3000,), "float32"), _t((8,), "float32"), _t((8,), "float32"),
                                                   3000, 3000, 1e-5],
                                             meta=dict(BLOCK=1024, num_warps=8)),
    "triton_v3_rmsnorm_bf16_8192": dict(fn=V.rmsnorm_kernel, grid=(8,),
                                        args=[_t((8, 8192), "bfloat16"), _t((8, 8192), "bfloat16"), _t((8192,), "bfloat16"),
                                              8192, 8192, 1e-6],
                                        meta=dict(BLOCK=8192, num_warps=16)),
    "triton_v3_layernorm_bwd_dx_w1": dict(fn=L.layernorm_bwd_dx_kernel, grid=(16,),
                                          args=[_t((16, 100), "bfloat16"), _t((16, 100), "bfloat16"), _t((4, 100), "bfloat16"),
                                                _t((4, 100), "bfloat16"), _t((16, 100), "bfloat16"), _t((100,), "bfloat16"),
                                                _t((16,), "float32"), _t((16,), "float32"), _t((8,), "int32"), 100, 100],
                                          meta=dict(GROUP=4, BLOCK=128, num_warps=1)),
    "triton_v3_add_fp32_odd": dict(fn=K.add_kernel, grid=(4,),
                                   args=[_t((231,), "float32"), _t((231,), "float32"), _t((231,), "float32"), 231],
                                   meta=dict(BLOCK=64, num_warps=2)),
    "triton_v3_tma_ws_fp8_128x64x128": dict(fn=G.matmul_tma_ws_kernel, grid=(2, 4),
                                            args=[_t((256, 512), "float8e4nv"), _t((256, 512), "float8e4nv"), _t((256, 256)),
                                                  256, 256, 512],
                                            meta=dict(BM=128, BN=64, BK=128, num_warps=4, num_stages=2)),
    "triton_v3_devdesc_bf16_128x256": dict(fn=G.matmul_persistent_devdesc_kernel, grid=(4,),
                                           args=[_t((512, 512), "bfloat16"), _t((512, 512), "bfloat16"), _t((512, 512)),
                                                 512, 512, 512],
                                           meta=dict(NUM_SMS=4, BM=128, BN=256, BK=64, GROUP_M=4, FLATTEN=True, num_warps=8,
                                                     num_stages=3)),
    "triton_v3_attn_desc_d128_ws": dict(fn=A.attn_fwd_desc_kernel, grid=(4, 2),
                                        args=[_t((2, 256, 128)), _t((2, 256, 128)), _t((2, 256, 128)), _t((2, 256, 128)),
                                              SM_SCALE, 256, 2],
                                        meta=dict(HEAD_DIM=128, BLOCK_M=64, BLOCK_N=64, WARP_SPECIALIZE=True, num_warps=4,
                                                  num_stages=2)),
    "triton_v3_bwd_dq_d16_causal": dict(fn=A.attn_bwd_dq_kernel, grid=(4, 2),
                                        args=[_t((2, 256, 16)), _t((2, 256, 16)), _t((2, 256, 16)), _t((2, 256, 16)),
                                              _t((2, 256), "float32"), _t((2, 256), "float32"), _t((2, 256, 16)), SM_SCALE, 256],
                                        meta=dict(HEAD_DIM=16, BLOCK_M=64, BLOCK_N=32, CAUSAL=True, num_warps=4, num_stages=2)),
})

# Variants, fourth round (2026-12-02): block-pointer GEMM with boundary checks, int8 GEMM,
# the attention backward fused into one kernel.
CASES.update({
    "triton_v4_matmul_block_ptr": dict(fn=V.matmul_block_ptr_kernel, grid=(3, 4),
                                       args=[_t((300, 200)), _t((200, 250)), _t((300, 250)), 300, 250, 200],
                                       meta=dict(BM=128, BN=64, BK=64, num_warps=4, num_stages=3)),
    "triton_v4_matmul_block_ptr_bf16": dict(fn=V.matmul_block_ptr_kernel, grid=(2, 2),
                                            args=[_t((256, 256), "bfloat16"), _t((256, 256), "bfloat16"),
                                                  _t((256, 256), "bfloat16"), 256, 256, 256],
                                            meta=dict(BM=128, BN=128, BK=32, num_warps=8, num_stages=4)),
    "triton_v4_matmul_int8": dict(fn=V.matmul_int8_kernel, grid=(2, 2),
                                  args=[_t((256, 256), "int8"), _t((256, 256), "int8"), _t((256, 256), "int32"),
                                        256, 256, 256],
                                  meta=dict(BM=128, BN=128, BK=64, num_warps=4, num_stages=3)),
    "triton_v4_attn_bwd_fused": dict(fn=V.attn_bwd_fused_kernel, grid=(4, 2),
                                     args=[_t((2, 256, 64)), _t((2, 256, 64)), _t((2, 256, 64)), _t((2, 256, 64)),
                                           _t((2, 256), "float32"), _t((2, 256), "float32"), _t((2, 256, 64)),
                                           _t((2, 256, 64)), _t((2, 256, 64)), SM_SCALE, 256],
                                     meta=dict(HEAD_DIM=64, BLOCK_M=64, BLOCK_N=64, num_warps=4, num_stages=2)),
    "triton_v4_attn_bwd_fused_bf16": dict(fn=V.attn_bwd_fused_kernel, grid=(8, 2),
                                          args=[_t((2, 256, 32), "bfloat16"), _t((2, 256, 32), "bfloat16"),
                                                _t((2, 256, 32), "bfloat16"), _t((2, 256, 32), "bfloat16"),
                                                _t((2, 256), "float32"), _t((2, 256), "float32"),
                                                _t((2, 256, 32), "bfloat16"), _t((2, 256, 32), "bfloat16"),
                                                _t((2, 256, 32), "bfloat16"), SM_SCALE, 256],
                                          meta=dict(HEAD_DIM=32, BLOCK_M=32, BLOCK_N=32, num_warps=4, num_stages=3)),
})
