#!/usr/bin/env bash
# Runs one pytest file against the package assembled in BUILD/python (src/python's CMake
# target), in the virtual environment `make test` prepares (make pydeps: Triton 3.6 and
# pytest from PyPI). Exit 77 (CTest: skipped) when that environment or the extension is
# missing.
#   usage: run_pytest.sh BUILD TEST_FILE [pytest args]
set -u
build=$(cd "$1" && pwd); shift
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=${WARPSCOPE_VENV:-$build/venv}
case $venv in /*) ;; *) venv=$root/$venv ;; esac
py=$venv/bin/python
if [[ ! -x $py ]] || ! "$py" -c "import pytest" 2>/dev/null; then
  echo "skipped: no virtual environment with pytest at $venv (make pydeps makes it)"
  exit 77
fi
if ! ls "$build"/python/warpscope/_core*.so >/dev/null 2>&1; then
  echo "skipped: the extension was not built (pybind11 or Python's headers missing: make deps)"
  exit 77
fi
export PYTHONPATH=$build/python:$root/corpus/triton${PYTHONPATH:+:$PYTHONPATH}
export WARPSCOPE_BUILD=$build WARPSCOPE_ROOT=$root
cd "$root"
"$py" -m pytest -q -p no:cacheprovider "$@"
status=$?
# pytest's 5: nothing collected (every test skipped at import): CTest's skip.
(( status == 5 )) && exit 77
exit $status
