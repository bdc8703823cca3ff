#!/bin/bash
# Regenerates corpus/tensor's PTX: nvcc -lineinfo -ptx in this folder (sm_90a for the wgmma
# kernels, which need it; sm_90 for the others), with `.file` rewritten to the bare .cu name
# as examples/regen_ptx.sh does. wgmma_probe.cu itself is written by gen_wgmma_probe.py.
set -euo pipefail
cd "$(dirname "$0")"
python3 gen_wgmma_probe.py > wgmma_probe.cu
for cu in *.cu; do
  ptx="${cu%.cu}.ptx"
  arch=sm_90
  grep -q "wgmma" "$cu" && arch=sm_90a
  nvcc -arch=$arch -lineinfo -ptx "$cu" -o "$ptx"
  sed -i -E "s|^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/$cu\"|\1\"$cu\"|" "$ptx"
  grep -q "\"$cu\"" "$ptx" || { echo "regen_ptx: no .file entry for $cu in $ptx" >&2; exit 1; }
done
