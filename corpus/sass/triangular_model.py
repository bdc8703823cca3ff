#!/usr/bin/env python3
"""Predicts the H200's load requests of triangular.cu (and of llm.c's attention_softmax_kernel1)
from the loop structure ptxas emits, against the PTX's structure that warpscope emulates.

nvcc unrolls `for (t2 = 0; t2 <= t; ++t2)` by 4 (a by-4 loop, then a by-1 remainder). ptxas
unrolls the by-4 loop again (tests/data/sass/corpus/triangular.sass): a 16-load loop while at
least 4 PTX iterations remain, one 8-load block if at least 2 remain, a 4-load loop for the rest,
then the remainder; a warp waits at each block's end (BSYNC) for its slowest lane. Lanes whose
trip counts differ run the pieces at different times: more warp-level load instructions."""
# triangular.cu's x[t2] line: requests and ideal sectors under the PTX loop (nvcc: by 4 and a
# remainder) and the SASS loop (ptxas: a 16-loop, one 8-block, a 4-loop, the remainder),
# warp by warp; every lane reads its own row, so sectors = lanes' loads in both.
import math
def sass_blocks(n):
    m = n & ~3; r = n & 3; rem = m; K = 0
    if rem > 12:
        while True:
            rem -= 16; K += 1
            if rem <= 12: break
    E = 0
    if rem > 4: rem -= 8; E = 1
    return K, E, rem // 4, r
def count(ns, blocks):  # blocks: list of (copies, per-lane count)
    req = ideal = 0
    for copies, per in blocks:
        for it in range(max(per)):
            a = sum(1 for p in per if p > it)
            req += copies; ideal += copies * math.ceil(a * 4 / 32)
    return req, ideal
def warp(ns):
    ptx = count(ns, [(4, [n // 4 for n in ns]), (1, [n % 4 for n in ns])])
    ks = [sass_blocks(n) for n in ns]
    sass = count(ns, [(16, [k[0] for k in ks]), (8, [k[1] for k in ks]), (4, [k[2] for k in ks]), (1, [k[3] for k in ks])])
    return ptx, sass
for name, trip in (("triangular_rows", lambda row: row % 1024 + 1), ("uniform_rows", lambda row: (row // 32 * 32) % 1024 + 1)):
    P = [0, 0]; S = [0, 0]; loads = 0
    for w in range(4096 // 32):
        ns = [trip(w * 32 + l) for l in range(32)]
        loads += sum(ns)
        p, s = warp(ns)
        P = [P[0] + p[0], P[1] + p[1]]; S = [S[0] + s[0], S[1] + s[1]]
    print(f"{name}: sectors {loads}; PTX requests {P[0]} ideal {P[1]}; SASS requests {S[0]} ideal {S[1]} ({100.0*(S[0]-P[0])/P[0]:+.2f}% requests)")
# llm.c attention_softmax_kernel1 (B = 8, T = 1024, NH = 12): t = (idx / NH) % T, trip t + 1
P = S = 0
for w in range(8 * 1024 * 12 // 32):
    ns = [((w * 32 + l) // 12) % 1024 + 1 for l in range(32)]
    p, s = warp(ns)
    P += p[0]; S += s[0]
print(f"attention_softmax_kernel1 one triangular loop: PTX requests {P}, SASS {S} ({100.0*(S-P)/P:+.2f}%)")
