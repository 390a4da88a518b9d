#!/bin/sh
# Runs docs/matlab.md as written (CTest: matlab/docs):
#   run_docs_test.sh <octave> <build dir> <source dir> <work dir> [skip reason]
# In an empty work directory with HOME set to it: the ```sh blocks of the
# page, line by line (the 'cmake -S' and 'cmake --build' lines are the
# configure and build that scripts/build ran on the same tree: 'build' is a
# link to the build directory, 'matlab' one to the source tree's matlab/),
# then its ```matlab blocks in one Octave session, then a call through the
# hand-built MEX file with the toolbox folder matlab/qru.
# Exit status: 0 passed, 1 failed, 77 skipped.
set -eu
octave="$1"; build="$2"; src="$3"; work="$4"; reason="${5:-}"
if [ -n "$reason" ]; then
  echo "SKIP: $reason"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work/home"
cd "$work"
ln -s "$src/matlab" matlab
ln -s "$build" build
export HOME="$work/home" QRU_MEX_BACKEND=cpu
doc="$src/docs/matlab.md"
awk '/^```sh$/ {f = 1; next} /^```/ {f = 0} f' "$doc" > doc_commands.sh
grep -v -e '^cmake -S ' -e '^cmake --build ' doc_commands.sh > run.sh
echo "== shell commands of docs/matlab.md"
sh -ex run.sh
awk '/^```matlab$/ {f = 1; next} /^```/ {f = 0} f' "$doc" > doc_example.m
echo "== Octave code of docs/matlab.md"
cat doc_example.m
"$octave" --no-gui --no-window-system --norc --quiet --eval \
  "try, run('$work/doc_example.m'); catch e, fprintf('FAILED: %s (%s)\n', e.message, e.identifier); exit(1); end; exit(0)"
echo "== the hand-built MEX file"
"$octave" --no-gui --no-window-system --norc --quiet --eval \
  "addpath('$work/mex'); addpath('$work/matlab/qru'); try, [Q, R] = qr(randn(9, 4)); [Q1, R1] = qru_qrdelete(Q, R, 2, 'row'); assert(norm(Q1*R1 - Q([1 3:9], :)*R) < 1e-12); disp(which('qru_mex')); catch e, fprintf('FAILED: %s\n', e.message); exit(1); end; exit(0)"
echo "== the installed toolbox: the files of matlab/qru and the MEX file, nothing else"
inst="$HOME/.local/share/qru/matlab"
(cd "$src/matlab/qru" && find . -type f; echo ./qru_mex.mex) | sort > want.txt
(cd "$inst/qru" && find . -type f) | sort > got.txt
ls -A "$inst" > top.txt
echo qru > top_want.txt
diff top_want.txt top.txt && diff want.txt got.txt
