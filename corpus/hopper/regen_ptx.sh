#!/usr/bin/env bash
# Regenerates every corpus/hopper/*.ptx from its .cu (nvcc 13.0, -lineinfo), as
# examples/regen_ptx.sh does: sm_90, or sm_90a for a .cu whose first lines say
# "Compile: nvcc -arch=sm_90a" (setmaxnreg needs it). `.file` paths of the .cu and of
# hopper_ptx.cuh are rewritten to bare names (they sit next to the .ptx).
#   usage: corpus/hopper/regen_ptx.sh [NVCC]
set -euo pipefail
cd "$(dirname "$0")"
nvcc=${1:-${NVCC:-nvcc}}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
for cu in *.cu; do
  ptx=${cu%.cu}.ptx
  arch=sm_90
  head -20 "$cu" | grep -q -- "-arch=sm_90a" && arch=sm_90a
  "$nvcc" -arch=$arch -lineinfo -ptx -o "$ptx" "$cu"
  sed -i -E "s|^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/$cu\"|\1\"$cu\"|; s|^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/hopper_ptx.cuh\"|\1\"hopper_ptx.cuh\"|" "$ptx"
  grep -q "\"$cu\"" "$ptx" || { echo "regen_ptx: no .file entry for $cu in $ptx" >&2; exit 1; }
  echo "$ptx ($arch)"
done
