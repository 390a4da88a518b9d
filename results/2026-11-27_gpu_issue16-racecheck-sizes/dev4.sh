# racecheck of the panels not yet cleared: backend_ops' panel cases
# (panel_t0 float, panel_t1 double) in pass 1 (no register kernel: the
# shared-memory panel where it fits, else the many-block one) and pass 3
# (the many-block kernel wherever it applies), four runs side by side on
# one GPU, every qru_ kernel instrumented, QRU_TEST_QUICK=1, 540 s each;
# the sizes a run finished before the limit (a line a size) are cleared.
# Usage: bash dev4.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $O/gpus.txt
source scripts/gpu-deps >/dev/null 2>&1
cmake -S . -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bt -j16 --target test_backend_ops >$O/build.log 2>&1 || { echo BUILD FAILED; tail -20 $O/build.log; }
echo "built $(date +%T)"
LEFT=$(( 575 - SECONDS ))
san() { # case pass
  local t0=$(date +%s)
  QRU_TEST_BACKEND=cuda CK_FORK=no QRU_TEST_QUICK=1 QRU_TEST_VERBOSE=1 QRU_TEST_PASS=$2 CK_RUN_CASE=$1 timeout $LEFT \
    compute-sanitizer --tool racecheck --kernel-name kns=qru_ --error-exitcode 99 \
    /tmp/bt/tests/test_backend_ops >$O/race-$1-p$2.log 2>&1
  echo "$1 pass $2: exit $? $(( $(date +%s) - t0 )) s: $(grep -E 'RACECHECK SUMMARY|Checks|Hazard' $O/race-$1-p$2.log | head -3 | tr '\n' ' ')"
}
{ for c in panel_t0 panel_t1; do for ps in 1 3; do san $c $ps & done; done; wait; } | tee $O/racecheck.txt
for f in $O/race-*.log; do grep -E "^\[" $f | tail -2 | sed "s|^|$(basename $f): |"; done | tee -a $O/racecheck.txt
rm -f $O/build.log $O/cmake.log
cd $O && tar czf ../dev4.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev4.tgz $O/
