#!/usr/bin/env bash
# Regenerates tests/data/sass/<name>.sass, the nvdisasm listings of examples/*.ptx that the
# kernel-analysis tests use (so they do not depend on nvdisasm being installed).
# Needs ptxas (CUDA toolkit) and nvdisasm (PATH, or pip install nvidia-cuda-nvdisasm).
set -euo pipefail
cd "$(dirname "$0")/.."
nvdisasm=$(command -v nvdisasm || python3 -c "import glob,site; m=[p for s in site.getsitepackages()+[site.getusersitepackages()] for p in glob.glob(s+'/nvidia/cu*/bin/nvdisasm')]; print(sorted(m)[-1] if m else '')")
[ -n "$nvdisasm" ] || { echo "nvdisasm not found" >&2; exit 1; }
mkdir -p tests/data/sass
tmp=$(mktemp -d)
for ptx in examples/*.ptx; do
  name=$(basename "$ptx" .ptx)
  ptxas -arch=sm_90 -lineinfo -o "$tmp/$name.cubin" "$ptx"
  "$nvdisasm" -c -gi "$tmp/$name.cubin" > "tests/data/sass/$name.sass"
done
rm -rf "$tmp"
echo "wrote $(ls tests/data/sass/*.sass | wc -l) listings to tests/data/sass/"
