#!/usr/bin/env python3
"""Writes the input files corpus/hopper/launches.txt passes with `file:` (run from
corpus/hopper/). data/iota_<W>x<H>.bin: u32 elements, (x, y) holds y * W + x + 1, the
values tma_layout.cu checks the boxes against. data/f16_mod2039.bin: 128 rows of 64 f16
(y * 64 + x) % 2039, tma_device_map.cu's. data/f16_ramp.bin: 2048 rows of 64 f16
values ((r * 64 + c) % 7), ws_pipeline.cu's input (small integers: exact sums)."""
import os
import struct

os.makedirs("data", exist_ok=True)
for w, h in [(64, 64), (60, 50), (12, 64), (36, 64)]:
    with open(f"data/iota_{w}x{h}.bin", "wb") as f:
        f.write(struct.pack(f"<{w * h}I", *range(1, w * h + 1)))
with open("data/f16_mod2039.bin", "wb") as f:  # tma_device_map.cu: (y * 64 + x) % 2039, 128 rows
    f.write(b"".join(struct.pack("<e", float(i % 2039)) for i in range(128 * 64)))
with open("data/f16_ramp.bin", "wb") as f:
    f.write(b"".join(struct.pack("<e", float((i % 7))) for i in range(2048 * 64)))
