# Triton 3.6 kernels of our own for the front end (issue 13 items 5 and 8): masked,
# pipelined loads (cp.async with src-size 0 for masked-off lanes) and every
# eviction_policy / cache_modifier tl.load and tl.store take. Run by regen_ptx.sh:
# compiles for sm_90 without a GPU and writes triton_<name>.ptx beside this file.
#   triton_masked_pipelined_sum  grid 64 of 128 threads (num_warps 4), dyn-smem 2048,
#                                x: 64 * 1000 floats, out: 64 floats; n = 1000 is not a
#                                multiple of BLOCK = 256, so the last tile is masked
#   triton_cache_hints           grid 32 of 128 threads, n = 16000 floats (4 * 128 per
#                                program: the last program is masked); x, y, z: n floats,
#                                out: 3 * n floats
import os
import sys

import triton
import triton.language as tl


@triton.jit
def masked_pipelined_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in tl.range(0, n, BLOCK, num_stages=3):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + pid * n + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + pid, tl.sum(acc, axis=0))


@triton.jit
def cache_hints(x_ptr, y_ptr, z_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    a = tl.load(x_ptr + offs, mask=m, other=0.0, eviction_policy='evict_last')
    b = tl.load(y_ptr + offs, mask=m, other=0.0, eviction_policy='evict_first')
    b2 = tl.load(y_ptr + offs, mask=m, other=0.0, cache_modifier='.cg')
    c = tl.load(z_ptr + offs, mask=m, other=0.0, cache_modifier='.ca')
    d = tl.load(z_ptr + offs, mask=m, other=0.0, cache_modifier='.cv', volatile=True)
    tl.store(out_ptr + offs, a + b + b2 + c + d, mask=m, cache_modifier='.cs')
    tl.store(out_ptr + n + offs, a, mask=m, cache_modifier='.wt')
    tl.store(out_ptr + 2 * n + offs, b, mask=m, eviction_policy='evict_last')


def main():
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    here = os.path.dirname(os.path.abspath(__file__))
    target = GPUTarget('cuda', 90, 32)

    def compile_one(name, fn, signature, constexprs, **options):
        kernel = triton.compile(ASTSource(fn=fn, signature=signature, constexprs=constexprs), target=target,
                                options=options)
        with open(os.path.join(here, f'triton_{name}.ptx'), 'w') as f:
            f.write(kernel.asm['ptx'])
        print(f'triton_{name}.ptx: shared {kernel.metadata.shared} bytes, {kernel.metadata.num_warps} warps',
              file=sys.stderr)

    compile_one('masked_pipelined_sum', masked_pipelined_sum,
                {'x_ptr': '*fp32', 'out_ptr': '*fp32', 'n': 'i32', 'BLOCK': 'constexpr'}, {'BLOCK': 256}, num_warps=4)
    compile_one('cache_hints', cache_hints,
                {'x_ptr': '*fp32', 'y_ptr': '*fp32', 'z_ptr': '*fp32', 'out_ptr': '*fp32', 'n': 'i32',
                 'BLOCK': 'constexpr'}, {'BLOCK': 512}, num_warps=4)


if __name__ == '__main__':
    main()
