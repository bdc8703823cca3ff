#!/usr/bin/env python3
"""Writes corpus/sass/data/: keys_16k.bin (16384 pseudo-random u32 keys, fixed seed, for the
compare-and-swap networks: warpscope and ptxlaunch read the same keys) and zeros_4.bin (a
zeroed u32: the spin lock must start unlocked, and buf: is random on the GPU)."""
import os
import random
import struct

here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
os.makedirs(here, exist_ok=True)
rng = random.Random(13)
with open(os.path.join(here, "keys_16k.bin"), "wb") as f:
    f.write(b"".join(struct.pack("<I", rng.getrandbits(32)) for _ in range(16384)))
with open(os.path.join(here, "zeros_4.bin"), "wb") as f:
    f.write(bytes(4))
