#!/usr/bin/env bash
# Measures every launch of examples/launches.txt on this machine's GPU with Nsight
# Compute and writes, under OUTDIR:
#   examples_h200.jsonl   one object per launch: {"name", "launch", "metrics", "lines", ...}
#                         (bench/gpu/collect_examples.py documents the fields)
#   ncu_raw.tar.gz        every ncu CSV export and log (nothing is lost if parsing fails)
#   ncu_reports.tar.gz    the .ncu-rep files (open them in the Nsight Compute UI)
#   measure.log           this script's log
#
#   usage: bench/gpu/measure_examples.sh OUTDIR [DEADLINE_SECONDS] [LAUNCHES]
#     DEADLINE_SECONDS (default 300): no new launch is profiled after this many
#     seconds; exports and packing still run. LAUNCHES defaults to examples/launches.txt.
# Needs ncu, python3 and a C++ compiler (g++, or nvcc) on PATH; run from anywhere.
set -uo pipefail
out=${1:?usage: measure_examples.sh OUTDIR [DEADLINE_SECONDS] [LAUNCHES]}
deadline=${2:-300}
root=$(cd "$(dirname "$0")/../.." && pwd)
launches=${3:-$root/examples/launches.txt}
[[ -f $launches ]] && launches=$(cd "$(dirname "$launches")" && pwd)/$(basename "$launches")
mkdir -p "$out" && out=$(cd "$out" && pwd)
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
die() { echo "measure_examples: error: $*" >&2; exit 1; }

main() {
for tool in ncu python3; do
  command -v "$tool" >/dev/null || die "'$tool' is not on PATH"
done
[[ -f $launches ]] || die "no launches file '$launches'"
work=$(mktemp -d "${TMPDIR:-/tmp}/measure_examples.XXXXXX")
echo "work directory: $work"

# --- build ptxlaunch -----------------------------------------------------------
if command -v g++ >/dev/null; then
  make -C "$root/tools/ptxlaunch" BUILD="$work" -B > "$work/build.log" 2>&1
else
  make -C "$root/tools/ptxlaunch" BUILD="$work" CXX=nvcc CXXFLAGS="-O2 -std=c++17" -B > "$work/build.log" 2>&1
fi
if [[ ! -x $work/ptxlaunch ]]; then
  cat "$work/build.log"
  die "building tools/ptxlaunch failed (log above)"
fi
launcher=$work/ptxlaunch

{
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1
  else
    echo "nvidia-smi not found"
  fi
  ncu --version 2>&1 | tail -1
} > "$work/device.txt"
echo "device: $(paste -sd';' "$work/device.txt")"

metrics=$(grep -v '^#' "$root/bench/gpu/metrics.txt" | paste -sd, -)
# The 10 metrics the calibration run already validated on the H200: the fallback.
safe_metrics=$(grep -v '^#' "$root/bench/gpu/metrics.txt" | sed -n 1,16p | grep -v -e '_op_red' | paste -sd, -)
# The folders of the launches' PTX files, and the CUDA (and Triton) sources there, for the Source page.
ptx_dirs=$(grep -v '^\s*#' "$launches" | tr -s ' \t' '\n' | grep '\.ptx$' | sort -u | while read -r p; do
  case $p in /*) dirname "$p" ;; *) dirname "$root/$p" ;; esac; done | sort -u)
sources=$(for d in $ptx_dirs; do ls "$d"/*.cu "$d"/*.cuh "$d"/*.py 2>/dev/null; done | paste -sd, -)
source_folders=$(echo $ptx_dirs | tr ' ' ',')

# Makes the PTX and file: paths of a launch absolute (ncu runs inside the PTX's folder,
# where the relative `.file "x.cu"` names of the PTX resolve).
absolute_args() {
  local token
  for token in "$@"; do
    case $token in
      /*) printf '%s\n' "$token" ;;
      *.ptx) printf '%s\n' "$root/$token" ;;
      file:/*) printf '%s\n' "$token" ;;
      file:*) printf '%s\n' "file:$root/${token#file:}" ;;
      *) printf '%s\n' "$token" ;;
    esac
  done
}

# Collection options, richest first; once a richer one fails where a poorer one
# works, later launches start at the one that worked.
first_attempt=1
resolve_sources=yes

profile() {  # name, then ptxlaunch args
  local name=$1; shift
  local rep=$work/$name
  local attempt limit
  for (( attempt = first_attempt; attempt <= 4; attempt++ )); do
    # Each attempt may run 60 s, less when the deadline is near (never under 15 s).
    limit=$(( deadline + 30 - $(elapsed) ))
    (( limit > 60 )) && limit=60
    (( limit < 15 )) && limit=15
    local opts=(--clock-control none --launch-count 1 -f -o "$rep")
    case $attempt in
      1) opts+=(--metrics "$metrics" --section SourceCounters --import-source yes --source-folders "$source_folders") ;;
      2) opts+=(--metrics "$metrics" --section SourceCounters --import-source yes) ;;
      3) opts+=(--metrics "$safe_metrics" --section SourceCounters) ;;
      4) opts+=(--metrics "$safe_metrics") ;;
    esac
    echo "  [$(elapsed) s] profile attempt $attempt"
    (cd "$rundir" && timeout -k 10 "$limit" ncu "${opts[@]}" "$launcher" "$@") \
      < /dev/null > "$work/$name.profile$attempt.log" 2>&1
    local rc=$?
    if [[ $rc -eq 0 && -f $rep.ncu-rep ]] && ! grep -q "No kernels were profiled" "$work/$name.profile$attempt.log"; then
      if (( attempt > first_attempt )); then
        echo "  collection option set $attempt works: using it from now on"
        first_attempt=$attempt
      fi
      return 0
    fi
    echo "  attempt $attempt failed (rc $rc):"; tail -5 "$work/$name.profile$attempt.log" | sed 's/^/    /'
    rm -f "$rep.ncu-rep"
    (( rc == 124 || rc == 137 )) && { echo "  timed out after $limit s: not retrying"; return 1; }
  done
  return 1
}

export_report() {  # name
  # ncu prints CUDA source (and its per-line rows) only for files it finds on this
  # machine: the PTX names them relative ("transpose_tiled.cu"), so run inside
  # examples/ and also name them with --resolve-source-file.
  local name=$1 rep=$work/$1.ncu-rep
  cd "$rundir" || return 1
  if ! ncu --import "$rep" --page raw --csv --print-units base < /dev/null > "$work/$name.raw.csv" 2> "$work/$name.raw.err"; then
    echo "  raw export with --print-units base failed ($(tail -1 "$work/$name.raw.err")); retrying without"
    ncu --import "$rep" --page raw --csv < /dev/null > "$work/$name.raw.csv" 2>> "$work/$name.raw.err" \
      || echo "  raw export failed: $(tail -1 "$work/$name.raw.err")"
  fi
  : > "$work/$name.source.err"
  if [[ $resolve_sources == yes ]] && ! { ncu --import "$rep" --page source --csv --print-source cuda,sass \
      --resolve-source-file "$sources" < /dev/null > "$work/$name.source.csv" 2> "$work/$name.source.err" \
      && [[ -s $work/$name.source.csv ]]; }; then
    echo "  source export with --resolve-source-file failed ($(tail -1 "$work/$name.source.err")); not using it again"
    resolve_sources=no
  fi
  if [[ $resolve_sources == no ]]; then
    ncu --import "$rep" --page source --csv --print-source cuda,sass < /dev/null \
      > "$work/$name.source.csv" 2>> "$work/$name.source.err" \
      || echo "  source export failed: $(tail -1 "$work/$name.source.err")"
  fi
  # The per-instruction view (no source lines, but every SASS instruction's counters):
  # small, and the fallback when the CUDA view is empty.
  ncu --import "$rep" --page source --csv --print-source sass < /dev/null \
    > "$work/$name.sass.csv" 2>> "$work/$name.source.err" || true
  cd "$root" || return 1
}

count=0 measured=0
while read -r name rest <&3; do
  [[ -z ${name:-} || $name == \#* ]] && continue
  count=$((count + 1))
  if (( $(elapsed) > deadline )); then
    echo "[$(elapsed) s] deadline of $deadline s reached: skipping $name"
    continue
  fi
  echo "[$(elapsed) s] $name"
  read -r -a words <<< "$rest"
  mapfile -t args < <(absolute_args "${words[@]}")
  # ncu runs beside the launch's PTX, where its relative `.file` names resolve.
  rundir=$root/examples
  for a in "${args[@]}"; do [[ $a == *.ptx ]] && rundir=$(dirname "$a"); done
  if ! "$launcher" "${args[@]}" --dry-run < /dev/null > "$work/$name.dryrun.log" 2>&1; then
    echo "  launch line rejected:"; sed 's/^/    /' "$work/$name.dryrun.log"
    continue
  fi
  if profile "$name" "${args[@]}"; then
    # The first export runs here (it settles which export options work); the others
    # run in the background while the GPU profiles the next launch.
    if (( measured == 0 )); then
      export_report "$name"
    else
      export_report "$name" > "$work/$name.export.log" 2>&1 &
    fi
    measured=$((measured + 1))
  fi
done 3< "$launches"
echo "[$(elapsed) s] profiled $measured of $count launches; waiting for the exports"
wait
for log in "$work"/*.export.log; do
  [[ -s $log ]] && { echo "$(basename "$log" .export.log):"; cat "$log"; }
done
echo "[$(elapsed) s] exports done"

python3 "$root/bench/gpu/collect_examples.py" --work "$work" --launches "$launches" \
  --device "$(paste -sd';' "$work/device.txt")" > "$out/examples_h200.jsonl" \
  || echo "collect_examples.py failed; the raw exports are in ncu_raw.tar.gz"
echo "$(wc -l < "$out/examples_h200.jsonl") records in examples_h200.jsonl"

(cd "$work" && tar czf "$out/ncu_raw.tar.gz" --ignore-failed-read \
  $(ls | grep -E '\.(csv|log|err|txt)$'))
(cd "$work" && ls *.ncu-rep >/dev/null 2>&1 && tar czf "$out/ncu_reports.tar.gz" *.ncu-rep)
ls -la "$out"
echo "[$(elapsed) s] done"
}

main 2>&1 | tee "$out/measure.log"
