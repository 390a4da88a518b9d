# racecheck of backend_ops' Givens-sweep cases (float sweeps_t0, double
# sweeps_t1) and two-part panel case (panel_tp), one pass a run
# (QRU_TEST_PASS, HEAD: the passes force the sweeps kernels: 0 the
# backend's choice, 1 global memory, 2 the cluster window, 3 the window in
# one block, 4 the chain in one block, 5 the chain in a cluster; panel_tp
# 0 and 1), every qru_ kernel instrumented, QRU_TEST_QUICK=1, fourteen
# runs side by side, 560 s each.  Usage: bash dev9.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
cmake -S . -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bt -j16 --target test_backend_ops >$O/build.log 2>&1 || { echo BUILD FAILED; tail -20 $O/build.log; }
echo "built $(date +%T)"
san() { # name case pass
  local n=$1 c=$2 ps=$3
  local t0=$(date +%s)
  CK_FORK=no QRU_TEST_QUICK=1 QRU_TEST_VERBOSE=1 QRU_TEST_PASS=$ps CK_RUN_CASE=$c timeout 560 \
    compute-sanitizer --tool racecheck --kernel-name kns=qru_ --error-exitcode 99 \
    /tmp/bt/tests/test_backend_ops >$O/race-$n.log 2>&1
  echo "$n ($c pass $ps): exit $? $(( $(date +%s) - t0 )) s: $(grep -E 'RACECHECK SUMMARY|Checks' $O/race-$n.log | tr '\n' ' ')"
}
{
for c in sweeps_t0 sweeps_t1; do
  for ps in 0 1 2 3 4 5; do san $c-p$ps $c $ps & done
done
san panel_tp-p0 panel_tp 0 &
san panel_tp-p1 panel_tp 1 &
wait
} | tee $O/racecheck.txt
for f in $O/race-*.log; do [ $(stat -c %s $f) -gt 200000 ] && gzip $f; done
rm -f $O/build.log $O/cmake.log
cd $O && tar czf ../dev9.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev9.tgz $O/
