#!/usr/bin/env bash
# Regenerates every examples/*.ptx from its .cu (nvcc 13.0, sm_90, -lineinfo) and
# the input files of make_data.py. Run it after editing a kernel; commit the .ptx.
#
# nvcc writes the absolute path of the .cu into `.file`; we rewrite it to the bare
# file name so the PTX is the same on every machine and report lines read
# `transpose_tiled.cu:27` (the .cu sits next to its .ptx). Header files that nvcc
# inlines (e.g. device_atomic_functions.hpp) keep their toolkit paths.
#   usage: examples/regen_ptx.sh [NVCC]
set -euo pipefail
cd "$(dirname "$0")"
nvcc=${1:-${NVCC:-nvcc}}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
for cu in *.cu; do
  ptx=${cu%.cu}.ptx
  "$nvcc" -arch=sm_90 -lineinfo -ptx -o "$ptx" "$cu"
  sed -i -E "s|^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/$cu\"|\1\"$cu\"|" "$ptx"
  grep -q "\"$cu\"" "$ptx" || { echo "regen_ptx: no .file entry for $cu in $ptx" >&2; exit 1; }
  echo "$ptx"
done
python3 make_data.py
