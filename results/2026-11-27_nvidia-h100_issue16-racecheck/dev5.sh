# racecheck of issue 16's kernels that earlier runs did not finish
# (results/2026-11-27_gpu_issue16-mbarrier/dev2: 23 runs side by side, 470
# s each): backend_ops' Givens-sweep cases (float, double) and panel_tp,
# update_rows' fast and tiles cases, update_cols' fast case, each with
# every qru_ kernel instrumented (a filter that leaves a thread-block-
# cluster kernel out stops racecheck with an internal error, dev5 there),
# QRU_TEST_QUICK=1, six runs side by side, 560 s each.  Tree: HEAD.
# Usage: bash dev5.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
cmake -S . -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bt -j16 --target test_backend_ops test_update_rows test_update_cols >$O/build.log 2>&1 || { echo BUILD FAILED; tail -20 $O/build.log; }
echo "built $(date +%T)"
san() { # name program case
  local n=$1 p=$2 c=$3
  local t0=$(date +%s)
  CK_FORK=no QRU_TEST_QUICK=1 QRU_TEST_VERBOSE=1 CK_RUN_CASE=$c timeout 555 \
    compute-sanitizer --tool racecheck --kernel-name kns=qru_ --error-exitcode 99 \
    /tmp/bt/tests/test_$p >$O/race-$n.log 2>&1
  echo "$n ($p $c): exit $? $(( $(date +%s) - t0 )) s: $(grep -E 'RACECHECK SUMMARY|Checks' $O/race-$n.log | tr '\n' ' ')"
}
{
san sweeps_t0 backend_ops sweeps_t0 &
san sweeps_t1 backend_ops sweeps_t1 &
san panel_tp backend_ops panel_tp &
san rows-fast update_rows fast &
san rows-tiles update_rows tiles &
san cols-fast update_cols fast &
wait
} | tee $O/racecheck.txt
for f in $O/race-*.log; do [ $(stat -c %s $f) -gt 200000 ] && gzip $f; done
rm -f $O/build.log $O/cmake.log
cd $O && tar czf ../dev5.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev5.tgz $O/
