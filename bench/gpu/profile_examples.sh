#!/usr/bin/env bash
# Runs `warpscope profile` (ncu, measured against predicted) on example launches, on a GPU
# machine, and keeps each kernel's text and JSON report:
#   OUTDIR/<name>.txt, OUTDIR/<name>.json, OUTDIR/summary.txt (one line per launch), profile.log
#
#   usage: bench/gpu/profile_examples.sh OUTDIR [DEADLINE_SECONDS] [NAME...]
#     NAMEs pick launches from examples/launches.txt (default: all). No new launch starts
#     after DEADLINE_SECONDS (default 300). WARPSCOPE (default build/warpscope) is the CLI;
#     tools/ptxlaunch is built into OUTDIR/.bin if needed.
set -uo pipefail
out=${1:?usage: profile_examples.sh OUTDIR [DEADLINE_SECONDS] [NAME...]}
deadline=${2:-300}
shift $(( $# >= 2 ? 2 : $# ))
root=$(cd "$(dirname "$0")/../.." && pwd)
warpscope=${WARPSCOPE:-$root/build/warpscope}
mkdir -p "$out/.bin" && out=$(cd "$out" && pwd)
start=$(date +%s)
if command -v g++ >/dev/null; then make -s -C "$root/tools/ptxlaunch" BUILD="$out/.bin" >"$out/profile.log" 2>&1
else make -s -C "$root/tools/ptxlaunch" BUILD="$out/.bin" CXX=nvcc CXXFLAGS="-O2 -std=c++17" >"$out/profile.log" 2>&1; fi
[[ -x $out/.bin/ptxlaunch ]] || { echo "ptxlaunch did not build; see $out/profile.log"; exit 1; }
cd "$root"
: >"$out/summary.txt"
grep -v '^#' examples/launches.txt | grep . | while read -r name rest; do
  if [[ $# -gt 0 ]] && [[ ! " $* " == *" $name "* ]]; then continue; fi
  if (( $(date +%s) - start > deadline )); then echo "$name: skipped (deadline)" >>"$out/summary.txt"; continue; fi
  # shellcheck disable=SC2086  # the launch's words are split on purpose
  "$warpscope" profile --keep "$out/$name.ncu" -- "$out/.bin/ptxlaunch" $rest >"$out/$name.txt" 2>>"$out/profile.log"
  status=$?
  # The same comparison as JSON, from the kept exports (no second ncu run).
  "$warpscope" profile --json --import "$out/$name.ncu/raw.csv" --import-source "$out/$name.ncu/source.csv" \
    --launch "$rest" >"$out/$name.json" 2>>"$out/profile.log"
  echo "$name: exit $status ($(( $(date +%s) - start )) s)" | tee -a "$out/summary.txt"
done
