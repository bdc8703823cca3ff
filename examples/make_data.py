#!/usr/bin/env python3
"""Writes the input files that launches.txt passes with `file:` (deterministic,
so the GPU measurement and the emulator see the same bytes). Run from examples/.

data/histogram_input.bin: 65536 bytes. A linear congruential generator picks
each byte; one byte in four is forced to 7 (a hot bin), so warps see both
spread-out bins and many lanes on one bin."""
import os

def lcg_bytes(count, seed):
    state = seed
    out = bytearray()
    for i in range(count):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        value = (state >> 16) & 0xFF
        out.append(7 if value % 4 == 0 else value)
    return bytes(out)

os.makedirs("data", exist_ok=True)
with open("data/histogram_input.bin", "wb") as f:
    f.write(lcg_bytes(65536, seed=2024))
