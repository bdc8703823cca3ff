#!/usr/bin/env bash
# Measures every case of corpus/triton on this machine's GPU with ncu (the H200: torch,
# Triton 3.6, ncu on PATH) and writes OUT/triton.jsonl (for tests/data/h200/corpus/) and
# OUT/ncu_raw.tar.gz (every CSV export and log).
#   usage: corpus/triton/measure_all.sh [OUT] [REGEX]   (default: ./triton-h200; REGEX: only
#          the cases whose names match, as grep -E; records of the others are not written)
set -u
root=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:-triton-h200}" && cd "${1:-triton-h200}" && pwd)
work=$out/work
mkdir -p "$work"
metrics=$(grep -v '^#' "$root/bench/gpu/metrics.txt" | paste -sd, -)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > "$work/device.txt" 2>&1
ncu --version 2>&1 | tail -1 >> "$work/device.txt"
match=${2:-.}
python3 "$root/corpus/triton/measure.py" --list | grep -E "^[^ ]*($match)" | while read -r name kernel; do
  echo "== $name ($kernel)"
  (cd "$root" && timeout -k 10 300 ncu --clock-control none --metrics "$metrics" --section SourceCounters \
     --import-source yes -k "regex:^${kernel}\$" --launch-skip 1 --launch-count 1 -f -o "$work/$name" \
     python3 corpus/triton/measure.py --case "$name") < /dev/null > "$work/$name.profile.log" 2>&1 \
    || { echo "  ncu failed:"; tail -5 "$work/$name.profile.log"; continue; }
  ncu --import "$work/$name.ncu-rep" --page raw --csv --print-units base > "$work/$name.raw.csv" 2> "$work/$name.raw.err"
  ncu --import "$work/$name.ncu-rep" --page source --csv --print-source cuda,sass > "$work/$name.source.csv" \
    2> "$work/$name.source.err"
done
python3 "$root/corpus/triton/collect.py" --work "$work" --device "$(paste -sd';' "$work/device.txt")" \
  > "$out/triton.jsonl"
echo "$(wc -l < "$out/triton.jsonl") records in $out/triton.jsonl"
(cd "$work" && tar czf "$out/ncu_raw.tar.gz" --ignore-failed-read $(ls | grep -E '\.(csv|log|err|txt)$'))
