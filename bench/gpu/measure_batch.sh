#!/usr/bin/env bash
# Measures many launches files on this machine's GPU with Nsight Compute, a few dozen
# launches per ncu process (tools/ptxlaunch --batch: one context, kernels in line order),
# and writes under OUTDIR one <name>.jsonl per launches file (collect_examples.py records,
# NAME of the file's folder: corpus/sass/launches.txt -> sass.jsonl) and raw.tar.gz with
# every export and log.
#
#   usage: bench/gpu/measure_batch.sh OUTDIR DEADLINE_SECONDS LAUNCHES...
#
# Per-process start-up (ncu, the CUDA context) is paid once per chunk of CHUNK launches
# (default 24), not once per launch. A launch that faults ends its chunk; the launches
# after it in that chunk are measured again one per process while time remains.
# Needs ncu, python3 and g++ (or nvcc) on PATH; run from anywhere.
set -uo pipefail
out=${1:?usage: measure_batch.sh OUTDIR DEADLINE_SECONDS LAUNCHES...}
deadline=${2:?deadline}
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
chunk_size=${CHUNK:-24}
mkdir -p "$out" && out=$(cd "$out" && pwd)
start=$(date +%s)
elapsed() { echo $(( $(date +%s) - start )); }
work=$(mktemp -d "${TMPDIR:-/tmp}/measure_batch.XXXXXX")

main() {
make -C "$root/tools/ptxlaunch" BUILD="$work" -B > "$work/build.log" 2>&1 || \
  make -C "$root/tools/ptxlaunch" BUILD="$work" CXX=nvcc CXXFLAGS="-O2 -std=c++17" -B >> "$work/build.log" 2>&1
shopt -s nullglob
[[ -x $work/ptxlaunch ]] || { cat "$work/build.log"; echo "measure_batch: cannot build ptxlaunch"; exit 1; }
{ nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1; ncu --version 2>&1 | tail -1; } > "$work/device.txt"
device=$(paste -sd';' "$work/device.txt")
echo "device: $device"
metrics=$(grep -v '^#' "$root/bench/gpu/metrics.txt" | paste -sd, -)

# Every launch line, its paths made absolute, in one list: "file<TAB>NAME args...".
all=$work/all.txt; : > "$all"
dirs=()
for launches in "$@"; do
  lf=$(cd "$(dirname "$launches")" && pwd)/$(basename "$launches")
  while read -r name rest; do
    [[ -z ${name:-} || $name == \#* ]] && continue
    line="$name"
    for w in $rest; do
      case $w in
        /*) line+=" $w" ;;
        *.ptx) line+=" $root/$w"; dirs+=("$(dirname "$root/$w")") ;;
        file:/*) line+=" $w" ;;
        file:*) line+=" file:$root/${w#file:}" ;;
        tmap:*file:*) line+=" ${w/file:/file:$root/}" ;;
        *) line+=" $w" ;;
      esac
    done
    printf '%s\t%s\n' "$lf" "$line" >> "$all"
  done < "$lf"
done
folders=$(printf '%s\n' "${dirs[@]}" | sort -u | paste -sd, -)
sources=$(for d in $(printf '%s\n' "${dirs[@]}" | sort -u); do ls "$d"/*.cu "$d"/*.cuh "$d"/*.py 2>/dev/null; done | paste -sd, -)
total=$(wc -l < "$all")
echo "$total launches from $# files"

# Dry runs first (no GPU): a line ptxlaunch rejects is reported, not profiled.
cut -f2 "$all" > "$work/lines.txt"
: > "$work/ok.txt"
while read -r name rest; do
  if "$work/ptxlaunch" $rest --dry-run > "$work/$name.dryrun.log" 2>&1; then echo "$name $rest" >> "$work/ok.txt"
  else echo "  $name rejected: $(tail -1 "$work/$name.dryrun.log")"; fi
done < "$work/lines.txt"

profile_chunk() {  # chunk file, prefix
  local list=$1 prefix=$2
  (cd "$work" && timeout -k 10 "${3:-300}" ncu --clock-control none -f -o "$work/$prefix" --metrics "$metrics" \
     --section SourceCounters --import-source yes --source-folders "$folders" \
     "$work/ptxlaunch" --batch "$list") < /dev/null > "$work/$prefix.log" 2>&1
  ncu --import "$work/$prefix.ncu-rep" --page raw --csv --print-units base > "$work/$prefix.raw.csv" 2>> "$work/$prefix.err"
  ncu --import "$work/$prefix.ncu-rep" --page source --csv --print-source cuda,sass --resolve-source-file "$sources" \
     > "$work/$prefix.source.csv" 2>> "$work/$prefix.err"
  ncu --import "$work/$prefix.ncu-rep" --page source --csv --print-source sass > "$work/$prefix.sass.csv" 2>> "$work/$prefix.err"
  grep -o 'ptxlaunch: batch [^ ]* ok' "$work/$prefix.log" | awk '{print $3}' > "$work/$prefix.launched"
  if [[ $filtered_import == yes ]]; then
    export_each "$prefix" &
  else
    python3 "$root/bench/gpu/split_ncu_exports.py" --work "$work" --prefix "$prefix" --launched $(cat "$work/$prefix.launched")
  fi
  echo "  [$(elapsed) s] $prefix: $(wc -l < "$work/$prefix.launched") of $(wc -l < "$list") launched"
}

# Each launch's pages exported alone from its chunk's report (ncu --import with
# --launch-skip i --launch-count 1), when this ncu filters imported results that way.
export_each() {  # prefix
  local prefix=$1 i=0 name
  while read -r name; do
    local f=(--launch-skip "$i" --launch-count 1)
    ncu --import "$work/$prefix.ncu-rep" "${f[@]}" --page raw --csv --print-units base > "$work/$name.raw.csv" 2>> "$work/$name.err"
    ncu --import "$work/$prefix.ncu-rep" "${f[@]}" --page source --csv --print-source cuda,sass \
      --resolve-source-file "$sources" > "$work/$name.source.csv" 2>> "$work/$name.err"
    ncu --import "$work/$prefix.ncu-rep" "${f[@]}" --page source --csv --print-source sass > "$work/$name.sass.csv" 2>> "$work/$name.err"
    : > "$work/$name.ncu-rep"
    i=$((i + 1))
  done < "$work/$prefix.launched"
}

# Does `ncu --import` filter results? Profile two launches and export the second alone.
filtered_import=no
probe_filter() {
  head -2 "$work/ok.txt" > "$work/probe.txt"
  (cd "$work" && timeout 120 ncu --clock-control none -f -o "$work/probe" --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum \
     "$work/ptxlaunch" --batch "$work/probe.txt") < /dev/null > "$work/probe.log" 2>&1
  ncu --import "$work/probe.ncu-rep" --launch-skip 1 --launch-count 1 --page raw --csv > "$work/probe.raw.csv" 2> "$work/probe.err"
  local rows
  rows=$(python3 -c "import csv,sys; r=list(csv.reader(open(sys.argv[1]))); print(sum(1 for x in r if x and x[0].strip().isdigit()), [x[0] for x in r if x and x[0].strip().isdigit()])" "$work/probe.raw.csv")
  echo "import filter probe: $rows"
  [[ $rows == "1 ['1']" || $rows == "1 ['0']" ]] && filtered_import=yes
  echo "filtered import: $filtered_import"
}

probe_filter
split -l "$chunk_size" -d -a 3 "$work/ok.txt" "$work/chunk_"
for c in "$work"/chunk_[0-9][0-9][0-9]; do
  (( $(elapsed) > deadline )) && { echo "[$(elapsed) s] deadline: skipping $(basename "$c")"; continue; }
  profile_chunk "$c" "$(basename "$c")"
done
# Launches a fault left out: one per process while time remains.
for c in "$work"/chunk_[0-9][0-9][0-9]; do
  while read -r name rest; do
    grep -qx "$name" "$work/$(basename "$c").launched" 2>/dev/null && continue
    (( $(elapsed) > deadline )) && break
    echo "$name $rest" > "$work/single_$name"
    profile_chunk "$work/single_$name" "single_$name" 60
  done < "$c"
done

wait  # the background exports
for launches in "$@"; do
  lf=$(cd "$(dirname "$launches")" && pwd)/$(basename "$launches")
  topic=$(basename "$(dirname "$lf")")
  [[ $(basename "$lf") != launches.txt ]] && topic=$(basename "$lf" .txt)
  topic=${topic#.}
  # collect_examples.py reads the launches file as given (relative paths from the root).
  python3 "$root/bench/gpu/collect_examples.py" --work "$work" --launches "$lf" --device "$device" \
    > "$out/$topic.jsonl" 2> "$work/collect_$topic.log"
  echo "$topic: $(grep -c '"status": "ok"' "$out/$topic.jsonl") of $(grep -c . "$out/$topic.jsonl") measured"
  # This file's exports, one archive per launches file (each stays small enough to fetch).
  names=$(grep -v '^\s*#' "$lf" | awk 'NF {print $1}')
  (cd "$work" && tar czf "$out/${topic}_raw.tar.gz" --ignore-failed-read \
     $(for n in $names; do ls "$n".raw.csv "$n".source.csv "$n".sass.csv "$n".dryrun.log 2>/dev/null; done))
done
(cd "$work" && tar czf "$out/logs.tar.gz" --ignore-failed-read *.log *.err *.launched device.txt all.txt ok.txt chunk_*.source.csv 2>/dev/null)
echo "[$(elapsed) s] done"
}

main "$@" 2>&1 | tee "$out/measure.log"
