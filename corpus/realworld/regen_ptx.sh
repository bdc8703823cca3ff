#!/usr/bin/env bash
# Regenerates every corpus/realworld/*.ptx from its .cu (nvcc 13.0, sm_90, -lineinfo) and the
# data files of make_data.py. Run it after editing a kernel; commit the .ptx and data/.
# `.file` names are rewritten to the bare file name (as examples/regen_ptx.sh does), so
# reports and ncu's Source page name lines as `scan.cu:42`; toolkit headers keep their paths.
#   usage: corpus/realworld/regen_ptx.sh [NVCC] [FILE.cu ...]
set -euo pipefail
cd "$(dirname "$0")"
nvcc=${1:-${NVCC:-nvcc}}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
shift || true
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(*.cu)
for cu in "${files[@]}"; do
  ptx=${cu%.cu}.ptx
  "$nvcc" -arch=sm_90 -lineinfo -ptx -o "$ptx" "$cu"
  sed -i -E "s|^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/$cu\"|\1\"$cu\"|" "$ptx"
  grep -q "\"$cu\"" "$ptx" || { echo "regen_ptx: no .file entry for $cu in $ptx" >&2; exit 1; }
  echo "$ptx"
done
python3 make_data.py
