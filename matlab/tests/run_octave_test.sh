#!/bin/sh
# Runs one Octave test of qru's MATLAB interface for CTest:
#   run_octave_test.sh <octave> <mex dir> <toolbox dir> <tests dir> <test> <backend> [skip reason]
# with the tests folder, the toolbox folder and the MEX file's folder on
# the path.  Exit status: 0 passed, 1 failed, 77 skipped (no Octave /
# mkoctfile, no MEX file, or the backend has no device here).
octave="$1"; mexdir="$2"; toolbox="$3"; tests="$4"; test="$5"; backend="$6"; reason="$7"
if [ -n "$reason" ]; then
  echo "SKIP: $reason"
  exit 77
fi
if [ -z "$octave" ] || ! command -v "$octave" >/dev/null 2>&1; then
  echo "SKIP: Octave not found (Debian: apt-get install octave octave-dev)"
  exit 77
fi
if [ -n "$backend" ] && [ ! -f "$mexdir/qru_mex.mex" ]; then
  echo "SKIP: $mexdir/qru_mex.mex was not built"
  exit 77
fi
exec "$octave" --no-gui --no-window-system --norc --quiet --eval \
  "addpath('$tests'); addpath('$toolbox'); addpath('$mexdir'); qru_run_test('$test', '$backend')"
