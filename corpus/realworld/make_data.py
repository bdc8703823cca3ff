#!/usr/bin/env python3
"""Writes the input files that corpus/realworld/launches.txt passes with `file:` (the data that
decides addresses or predicates: keys, bins, indices, cell lists, tokens). Deterministic (its
own xorshift generator, no library randomness), so the GPU measurement and warpscope see the
same bytes. Run from corpus/realworld/ (regen_ptx.sh does)."""
import math
import os
import struct


class XorShift:
    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF or 1

    def u32(self):
        x = self.state
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        self.state = x
        return (x >> 16) & 0xFFFFFFFF

    def below(self, n):
        return self.u32() % n

    def unit(self):
        return self.u32() / 4294967296.0

    def normal(self):  # Box-Muller
        u1 = max(self.unit(), 1e-12)
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * self.unit())

    def permutation(self, n):
        p = list(range(n))
        for i in range(n - 1, 0, -1):
            j = self.below(i + 1)
            p[i], p[j] = p[j], p[i]
        return p


def write(name, fmt, values):
    with open(os.path.join("data", name), "wb") as f:
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


os.makedirs("data", exist_ok=True)

# Sorting: 32768 random keys; the same keys as 32 sorted runs of 1024; the radix scatter's
# block offsets for shift 0 (exclusive scan of the 16 x 32 digit counts, digit-major).
rng = XorShift(0x5EED0001)
keys = [rng.u32() for _ in range(32768)]
write("keys_u32.bin", "I", keys)
runs = []
for r in range(32):
    runs += sorted(keys[r * 1024:(r + 1) * 1024])
write("keys_runs1024.bin", "I", runs)
counts = [[0] * 32 for _ in range(16)]
for i, k in enumerate(keys):
    counts[k & 15][i // 1024] += 1
offsets, running = [], 0
for d in range(16):
    for b in range(32):
        offsets.append(running)
        running += counts[d][b]
write("radix_offsets_s0.bin", "I", offsets)

# Histograms: uniform bytes; bytes where 7 in 8 are 42 (a hot bin); normal floats.
rng = XorShift(0x5EED0002)
write("bytes_random.bin", "B", [rng.below(256) for _ in range(65536)])
write("bytes_hot.bin", "B", [42 if rng.below(8) else rng.below(256) for _ in range(65536)])
write("floats_normal.bin", "f", [rng.normal() for _ in range(16384)])

# Gathers and scatters over 16384 elements; 2048 row indices.
rng = XorShift(0x5EED0003)
n = 16384
write("perm_16384.bin", "I", rng.permutation(n))
write("idx_local_16384.bin", "I", [min(max(i + rng.below(129) - 64, 0), n - 1) for i in range(n)])
write("idx_random_16384.bin", "I", [rng.below(n) for _ in range(n)])
write("perm_2048.bin", "I", rng.permutation(2048))

# Particles: 4096 in the unit cube, a 16^3 grid. Positions (float4, w = 1), the {hash, index}
# pairs sorted by hash, cell starts and cell ends (0xffffffff where empty), positions in that
# order.
rng = XorShift(0x5EED0004)
GRID, COUNT = 16, 4096
pos = [(rng.unit(), rng.unit(), rng.unit(), 1.0) for _ in range(COUNT)]
cell = lambda v: min(max(int(math.floor(v * GRID)), 0), GRID - 1)
hashes = [(cell(p[2]) * GRID + cell(p[1])) * GRID + cell(p[0]) for p in pos]
order = sorted(range(COUNT), key=lambda i: (hashes[i], i))
write("particles_pos.bin", "f", [c for p in pos for c in p])
write("particles_sorted.bin", "I", [v for i in order for v in (hashes[i], i)])
start, end = [0xFFFFFFFF] * GRID ** 3, [0xFFFFFFFF] * GRID ** 3
for rank, i in enumerate(order):
    h = hashes[i]
    if start[h] == 0xFFFFFFFF:
        start[h] = rank
    end[h] = rank + 1
write("particles_cell_start.bin", "I", start)
write("particles_cell_end.bin", "I", end)
write("particles_sorted_pos.bin", "f", [c for i in order for c in pos[i]])

# Language model: token ids and targets of 256 positions, in [0, 1024); a zeroed status array.
rng = XorShift(0x5EED0005)
write("tokens_256.bin", "i", [rng.below(1024) for _ in range(256)])
write("targets_256.bin", "i", [rng.below(1024) for _ in range(256)])
write("zeros_1024.bin", "B", [0] * 1024)

# Predicate masks per warp (predicated.cu): all off, all on, one lane, every other lane; all off.
write("masks_mixed.bin", "I", [0x00000000, 0xFFFFFFFF, 0x00000001, 0x55555555])
write("masks_zero.bin", "I", [0x00000000])
