"""Triton 3.6 kernels that move data with TMA and no tl.dot (so warpscope runs them
whole without wgmma): host TensorDescriptors (a CUtensorMap per argument, `tmap:` on
the launch line) and descriptors made on the device with tl.make_tensor_descriptor
(Triton builds the maps in its global scratch buffer)."""
import triton
import triton.language as tl


@triton.jit
def tma_add_host(x_desc, y_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    x = x_desc.load([pm * BM, pn * BN])
    y = y_desc.load([pm * BM, pn * BN])
    out_desc.store([pm * BM, pn * BN], x + y)


@triton.jit
def tma_add_device(x_ptr, y_ptr, out_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    o_desc = tl.make_tensor_descriptor(out_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    pm = tl.program_id(0)
    pn = tl.program_id(1)
    o_desc.store([pm * BM, pn * BN], x_desc.load([pm * BM, pn * BN]) + y_desc.load([pm * BM, pn * BN]))


@triton.jit
def tma_softmax(in_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr, ROWS: tl.constexpr):
    in_desc = tl.make_tensor_descriptor(in_ptr, shape=[n_rows, n_cols], strides=[n_cols, 1], block_shape=[ROWS, BLOCK])
    out_desc = tl.make_tensor_descriptor(out_ptr, shape=[n_rows, n_cols], strides=[n_cols, 1], block_shape=[ROWS, BLOCK])
    row = tl.program_id(0) * ROWS
    x = in_desc.load([row, 0]).to(tl.float32)
    x = x - tl.max(x, axis=1)[:, None]
    e = tl.exp(x)
    out_desc.store([row, 0], (e / tl.sum(e, axis=1)[:, None]).to(tl.float16))
