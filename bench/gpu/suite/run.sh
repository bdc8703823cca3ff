#!/usr/bin/env bash
# Builds and runs the GPU benchmark suite: run.sh OUTDIR -> OUTDIR/transpose.json, reduce.json
set -euo pipefail
OUT=${1:?usage: run.sh OUTDIR}
HERE=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$OUT"
"$NVCC" -O3 -arch=sm_90 -lcublas -o /tmp/suite "$HERE/suite.cu"
/tmp/suite "$OUT"
