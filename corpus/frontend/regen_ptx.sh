#!/usr/bin/env bash
# Regenerates corpus/frontend/*.ptx: nvcc 13.0 (sm_90, -lineinfo) for each .cu, Triton
# 3.6 (triton_kernels.py, through TRITON_PYTHON, default /tmp/tvenv/bin/python) for the
# Triton kernels. As examples/regen_ptx.sh does, `.file` entries naming our own sources
# are rewritten to the bare file name (the source sits next to its .ptx).
#   usage: corpus/frontend/regen_ptx.sh [NVCC]
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
python=${TRITON_PYTHON:-/tmp/tvenv/bin/python}
if [ -x "$python" ]; then
  "$python" triton_kernels.py
  for ptx in triton_*.ptx; do
    sed -i -E "s|^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/triton_kernels.py\"|\1\"triton_kernels.py\"|" "$ptx"
    echo "$ptx"
  done
else
  echo "regen_ptx: no Triton at $python; the triton_*.ptx files are kept" >&2
fi
