"""The launches of corpus/triton's kernels (kernels.py), shared by the Python tests
(tests/python) and the H200 measurement script (measure.py).

Each case: the kernel, its grid, its arguments as (kind, ...) tuples that either side makes
into tensors (stand-ins here, torch tensors on the GPU), and its meta-parameters.

    ("tensor", shape, dtype)    a tensor (contents: zeros here; on the GPU, random values,
                                which no address depends on)
    an int or a float           as it is
"""

import kernels as K

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


def make_args(case, make_tensor):
    """The case's arguments with each ("tensor", shape, dtype) made by make_tensor(shape, dtype)."""
    return [make_tensor(a[1], a[2]) if isinstance(a, tuple) and a[0] == "tensor" else a for a in case["args"]]
