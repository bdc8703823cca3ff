#!/usr/bin/env bash
# Builds and runs the GPU benchmark suite, one program per part.
#
#   bench/gpu/suite/run.sh OUTDIR [PART...]
#
# PARTS (default all): transpose reduce histogram scan conv3x3 gemm aos_soa copies.
# Writes OUTDIR/<part>.json (the results), OUTDIR/<part>.log (its table and messages),
# OUTDIR/run.jsonl (one JSON line per build and per run: part, stage, exit status, seconds),
# OUTDIR/command.txt (this command, the commit, nvcc's version). A part that fails to build or
# run (or whose results fail their CPU check) does not stop the others; the exit status is 1
# if any did.
# Environment: BUILD_ONLY=1 compiles and stops; NVCC (default: nvcc on PATH, else
# /usr/local/cuda/bin/nvcc); NVCC_FLAGS (default -O3); JOBS (parallel compiles, default nproc);
# SUITE_SEED (fixes the random inputs); SUITE_REPS (timed launches per variant, default 100).
set -uo pipefail
OUT=${1:?usage: run.sh OUTDIR [PART...]}
shift
ALL="transpose reduce histogram scan conv3x3 gemm aos_soa copies"
PARTS=${*:-$ALL}
HERE=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
FLAGS=${NVCC_FLAGS:--O3}
JOBS=${JOBS:-$(nproc)}
mkdir -p "$OUT/bin"
OUT=$(cd "$OUT" && pwd)
for p in $PARTS; do
  [[ -f "$HERE/$p.cu" ]] || { echo "run.sh: unknown part '$p' (parts: $ALL)" >&2; exit 2; }
done

{
  echo "command: bench/gpu/suite/run.sh $OUT $*"
  echo "commit: $(git -C "$HERE" rev-parse HEAD 2>/dev/null || echo unknown)"
  echo "nvcc: $("$NVCC" --version | tail -1)"
  echo "flags: $FLAGS -arch=sm_90; BUILD_ONLY=${BUILD_ONLY:-0} SUITE_SEED=${SUITE_SEED:-fresh} SUITE_REPS=${SUITE_REPS:-100}"
  echo "date: $(date -u +%FT%TZ)"
} > "$OUT/command.txt"
: > "$OUT/run.jsonl"

log() {  # part stage exit seconds
  printf '{"part": "%s", "stage": "%s", "exit": %d, "seconds": %.1f}\n' "$1" "$2" "$3" "$4" >> "$OUT/run.jsonl"
}

build() {  # part
  local p=$1 t0=$SECONDS libs=""
  [[ $p == transpose || $p == gemm ]] && libs=-lcublas
  "$NVCC" -std=c++17 $FLAGS -arch=sm_90 -Werror all-warnings -o "$OUT/bin/$p" "$HERE/$p.cu" $libs \
    > "$OUT/bin/$p.build.log" 2>&1
  local rc=$?
  log "$p" build $rc $((SECONDS - t0))
  if [[ $rc -ne 0 ]]; then echo "BUILD FAILED: $p (see $OUT/bin/$p.build.log)"; cat "$OUT/bin/$p.build.log"; fi
  return $rc
}
export -f build log
export OUT NVCC FLAGS HERE

t_build=$SECONDS
printf '%s\n' $PARTS | xargs -P "$JOBS" -I{} bash -c 'build {}'
build_rc=$?
echo "built in $((SECONDS - t_build)) s: $(ls "$OUT/bin" | grep -v '\.log$' | tr '\n' ' ')"
if [[ ${BUILD_ONLY:-0} == 1 ]]; then
  [[ $build_rc -eq 0 ]] && echo "BUILD_ONLY: all parts compiled" || echo "BUILD_ONLY: some parts failed to compile"
  exit $(( build_rc != 0 ))
fi

status=$(( build_rc != 0 ))
t_all=$SECONDS
for p in $PARTS; do
  [[ -x "$OUT/bin/$p" ]] || { status=1; continue; }
  t0=$SECONDS
  "$OUT/bin/$p" "$OUT" 2>&1 | tee "$OUT/$p.log"
  rc=${PIPESTATUS[0]}
  log "$p" run "$rc" $((SECONDS - t0))
  echo "[$p: exit $rc, $((SECONDS - t0)) s]"
  [[ $rc -eq 0 ]] || status=1
done
echo "suite: $((SECONDS - t_all)) s of runs; results in $OUT; exit $status"
exit $status
