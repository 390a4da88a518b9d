# The rest of dev1's racecheck jobs, with the whole CUDA suite beside them
# (scripts/gpu-check without sanitizers, on the last GPU): the two
# sweeps jobs of the largest size that dev1's deadline stopped (double
# pass 2, float pass 5: one after the other alone on GPU 1), update_rows'
# fast case alone on GPU 0, and the sizes 10 and 11 of the sweeps cases
# and the two-part panel's last size (8) that dev1 did not reach, from a
# queue with two workers on GPU 2 and one on GPU 3.  Every qru_ kernel
# instrumented, QRU_TEST_QUICK=1.  Usage: bash dev3.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $O/gpus.txt
NG=$(nvidia-smi -L | wc -l); LAST=$(( NG - 1 ))
source scripts/gpu-deps >/dev/null 2>&1
( CUDA_VISIBLE_DEVICES=$LAST QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=/tmp/bf OUT=$O/gc \
    timeout 540 bash scripts/gpu-check >$O/gpu-check.log 2>&1
  echo "gpu-check exit $? $(date +%T)"
  grep -hE "tests passed|tests failed" $O/gc/*ctest-cuda.log | head -3
  grep -hE "\*\*\*Failed|Timeout|Not Run" $O/gc/*ctest-cuda.log | head
  grep -hE "Checks" $O/gc/*nonfinite.log | head -2 ) > $O/suite.txt 2>&1 &
cmake -S . -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bt -j32 --target test_backend_ops test_update_rows >$O/build.log 2>&1 || { echo BUILD FAILED; tail -20 $O/build.log; }
echo "built $(date +%T), $NG GPUs"
export DEADLINE=$(( $(date +%s) + ${RC_BUDGET:-500} )) O
job() { # gpu name program case pass size
  local g=$1 n=$2 prog=$3 c=$4 ps=$5 sz=$6
  local left=$(( DEADLINE - $(date +%s) )) t0=$(date +%s)
  [ $left -lt 10 ] && { echo "$n: not started"; return; }
  CUDA_VISIBLE_DEVICES=$g QRU_TEST_BACKEND=cuda CK_FORK=no QRU_TEST_QUICK=1 QRU_TEST_VERBOSE=1 \
    QRU_TEST_PASS=$ps QRU_TEST_SIZE=$sz CK_RUN_CASE=$c timeout $left \
    compute-sanitizer --tool racecheck --kernel-name kns=qru_ --error-exitcode 99 \
    /tmp/bt/tests/$prog >$O/race-$n.log 2>&1
  echo "$n: exit $? $(( $(date +%s) - t0 )) s (GPU $g): $(grep -E 'RACECHECK SUMMARY|Checks' $O/race-$n.log | tr '\n' ' ')"
}
export -f job
{
  for sz in 11 10; do for c in sweeps_t0 sweeps_t1; do for ps in 0 2 3 4 5; do
    case "$c-p$ps-s$sz" in sweeps_t1-p0-s11|sweeps_t1-p2-s11) continue;; esac
    echo "$c-p$ps-s$sz test_backend_ops $c $ps $sz"; done; done; done
  for ps in 0 1; do echo "panel_tp-p$ps-s8 test_backend_ops panel_tp $ps 8"; done
} > $O/jobs.txt
NJ=$(wc -l < $O/jobs.txt); echo 0 > /tmp/rc-next
{
  job 0 rows-fast test_update_rows fast "" "" &
  ( job 1 sweeps_t1-p2-s12 test_backend_ops sweeps_t1 2 12
    job 1 sweeps_t0-p5-s12 test_backend_ops sweeps_t0 5 12 ) &
  for g in 2 2 $LAST; do
    ( while :; do
        i=$(flock /tmp/rc-next sh -c 'i=$(cat /tmp/rc-next); echo $((i + 1)) > /tmp/rc-next; echo $i')
        [ $i -ge $NJ ] && break
        job $g $(sed -n "$(( i + 1 ))p" $O/jobs.txt)
      done ) &
  done
  wait
} | tee $O/racecheck.txt
wait
cat $O/suite.txt
cp $O/gc/*ctest-cuda.log $O/gc/*nonfinite.log $O/ 2>/dev/null; rm -rf $O/gc
for f in $O/race-*.log; do [ $(stat -c %s $f) -gt 200000 ] && gzip $f; done
rm -f $O/build.log $O/cmake.log
cd $O && tar czf ../dev3.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev3.tgz $O/
