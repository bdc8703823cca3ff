#!/bin/sh
# Regenerates patterns/*.expected from `warpscope pattern`, on purpose: review `git diff patterns`
# before committing. Usage: patterns/update_golden.sh [BUILD_DIR]   (default: build)
set -eu
cd "$(dirname "$0")/.."
build=${1:-build}
cmake --build "$build" --target warpscope >/dev/null
for ws in patterns/*.ws; do
  # A pattern that is meant to fail keeps its rendered error (stderr) as its expectation.
  "$build/warpscope" pattern "$ws" >"${ws%.ws}.expected" 2>&1 || true
done
git --no-pager diff --stat -- patterns || true
