# The last checks of issue 16's "done when" on the final library (d60c2f4's
# kernels): the randomised chains of 1000 updates on the device (every
# form; the dissertation's algorithm, the fast one and the Householder
# tiles forced; float and double), memcheck and synccheck of 1000-update
# chains of the fast and tiles paths (one chain case a run, every kernel
# instrumented), and racecheck of the two float panel runs not yet done on
# their own: backend_ops' panel_t0 in pass 2 (global-memory panel) and
# pass 4 (the choice without the warp chain; with QRU_TEST_QUICK the tall
# 5000 x 100 panel).  Runs side by side on one GPU, each with the time
# left before a common deadline; a run the limit stops is not cleared.
# Usage: bash dev1.sh OUT
set -u
O=$1; mkdir -p "$O"
say() { echo "$*"; }
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $O/gpus.txt
source scripts/gpu-deps >/dev/null 2>&1
cmake -S . -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bt -j16 --target test_backend_ops test_update_chain >$O/build.log 2>&1 || { echo BUILD FAILED; tail -20 $O/build.log; }
echo "built $(date +%T)"
export DEADLINE=$(( $(date +%s) + ${RC_BUDGET:-470} ))
plain() {
  local t0=$(date +%s)
  QRU_TEST_CHAIN_UPDATES=1000 CK_TIMEOUT_MULTIPLIER=8 QRU_TEST_BACKEND=cuda timeout 300 \
    /tmp/bt/tests/test_update_chain > $O/chain1000-cuda.txt 2>&1
  echo "chain1000 plain: exit $? $(( $(date +%s) - t0 )) s: $(grep -E 'Checks' $O/chain1000-cuda.txt)"
}
san() { # tool program case pass(or -) extra-args...
  local tool=$1 prog=$2 c=$3 ps=$4; shift 4
  local left=$(( DEADLINE - $(date +%s) )) t0=$(date +%s) n=$tool-$c${ps/-/}
  [ "$ps" != - ] && n=$tool-$c-p$ps
  QRU_TEST_BACKEND=cuda CK_FORK=no CK_DEFAULT_TIMEOUT=1000 QRU_TEST_QUICK=1 QRU_TEST_VERBOSE=1 \
    QRU_TEST_CHAIN_UPDATES=1000 QRU_TEST_PASS=${ps/-/} CK_RUN_CASE=$c timeout $left \
    compute-sanitizer --tool $tool "$@" --error-exitcode 99 /tmp/bt/tests/$prog >$O/$n.log 2>&1
  echo "$n: exit $? $(( $(date +%s) - t0 )) s: $(grep -E 'SUMMARY|Checks|Hazard' $O/$n.log | head -3 | tr '\n' ' ')"
}
{
  plain &
  san racecheck test_backend_ops panel_t0 2 --kernel-name kns=qru_ &
  san racecheck test_backend_ops panel_t0 4 --kernel-name kns=qru_ &
  for c in fast_q fast_thin fast_qless tiles_q; do san memcheck test_update_chain $c - & done
  san synccheck test_update_chain fast_q - &
  wait
} | tee $O/summary.txt
for f in $O/*.log; do grep -E "^\[|chain:" $f | tail -2 | sed "s|^|$(basename $f): |"; done | tee -a $O/summary.txt
rm -f $O/build.log $O/cmake.log
cd $O && tar czf ../dev1.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev1.tgz $O/
