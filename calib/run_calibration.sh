#!/usr/bin/env bash
# Measures calib/patterns.txt (or $1) on this machine's GPU under ncu and writes
# calibration.jsonl (one object per pattern, with the ncu counters, harness traffic
# subtracted) to $2 (default: ./calib-out). Needs nvcc, ncu and cuobjdump on PATH.
#   usage: calib/run_calibration.sh [PATTERNS] [OUTDIR] [DEADLINE_SECONDS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
patterns=${1:-$here/patterns.txt}
out=${2:-$PWD/calib-out}
deadline=${3:-420}
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O2 -arch=sm_90 -o "$work/probe" "$here/probe.cu"
cuobjdump --dump-sass "$work/probe" > "$out/probe.sass" 2>&1 || true
metrics=$(paste -sd, "$here/metrics.txt")
start=$(date +%s)
grep -v '^#' "$patterns" | split -l 120 -d -a 3 - "$work/chunk."
for chunk in "$work"/chunk.*; do
  if (( $(date +%s) - start > deadline )); then
    echo "deadline reached: stopping before $(basename "$chunk")" >&2
    break
  fi
  ncu --clock-control none --cache-control none --metrics "$metrics" \
      -o "$chunk" "$work/probe" "$chunk" > "$chunk.log" 2>&1 || { tail -20 "$chunk.log"; exit 1; }
  ncu --import "$chunk.ncu-rep" --csv --page raw > "$chunk.csv"
  echo "$(basename "$chunk"): $(( $(date +%s) - start )) s" >&2
done
python3 "$here/collect.py" "$work" > "$out/calibration.jsonl"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$out/device.txt"
ncu --version | tail -1 >> "$out/device.txt"
nvcc --version | tail -1 >> "$out/device.txt"
tar czf "$out/raw.tgz" -C "$work" $(cd "$work" && ls | grep -E "\.(csv|log)$|^chunk\.[0-9]+$")
wc -l "$out/calibration.jsonl" >&2
