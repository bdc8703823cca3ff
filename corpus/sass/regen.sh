#!/usr/bin/env bash
# Regenerates corpus/sass: every *.ptx from its .cu (nvcc 13.0, sm_90, -lineinfo, `.file`
# rewritten to the bare name as examples/regen_ptx.sh does), the data files (make_data.py),
# and the SASS listings the matcher's tests read, tests/data/sass/corpus/<name>.sass
# (ptxas -arch=sm_90 -lineinfo, nvdisasm -c -gi). Run after editing a kernel; commit all.
#   usage: corpus/sass/regen.sh [NVCC]
set -euo pipefail
cd "$(dirname "$0")"
nvcc=${1:-${NVCC:-nvcc}}
command -v "$nvcc" >/dev/null || nvcc=/usr/local/cuda/bin/nvcc
ptxas=$(dirname "$(command -v "$nvcc")")/ptxas
nvdisasm=$(command -v nvdisasm || python3 -c "import glob,site; m=[p for s in site.getsitepackages()+[site.getusersitepackages()] for p in glob.glob(s+'/nvidia/cu*/bin/nvdisasm')]; print(sorted(m)[-1] if m else '')")
[ -n "$nvdisasm" ] || { echo "nvdisasm not found" >&2; exit 1; }
listings=../../tests/data/sass/corpus
mkdir -p "$listings"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for cu in *.cu; do
  name=${cu%.cu}
  "$nvcc" -arch=sm_90 -lineinfo -ptx -o "$name.ptx" "$cu"
  sed -i -E "s|^(\s*\.file\s+[0-9]+\s+)\"[^\"]*/$cu\"|\1\"$cu\"|" "$name.ptx"
  grep -q "\"$cu\"" "$name.ptx" || { echo "regen: no .file entry for $cu in $name.ptx" >&2; exit 1; }
  "$ptxas" -arch=sm_90 -lineinfo -o "$tmp/$name.cubin" "$name.ptx"
  "$nvdisasm" -c -gi "$tmp/$name.cubin" > "$listings/$name.sass"
  echo "$name.ptx $listings/$name.sass"
done
python3 make_data.py
