# racecheck of what the seventh session's runs left (dev9 of
# results/2026-11-27_nvidia-h100_issue16-racecheck/): the three largest
# sizes of the Givens sweeps cases (QRU_TEST_SIZE 10, 11, 12: L 300 p 130,
# L 260 p 130 nr 150, L 400 p 200) in each pass that forces a kernel
# (QRU_TEST_PASS 0, 2, 3, 4, 5; pass 1 was cleared) in float (sweeps_t0)
# and double (sweeps_t1); the two-part panel's last size (8) in both
# passes, float and double; update_rows' fast and tiles cases whole.
# One run a job, every qru_ kernel instrumented, QRU_TEST_QUICK=1; runs
# that share a GPU share it by time slices, so the jobs are spread over
# the machine's GPUs (two workers a GPU), the largest first, each with the
# time left before a common deadline.  Usage: bash dev1.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader | tee $O/gpus.txt
NG=$(nvidia-smi -L | wc -l)
source scripts/gpu-deps >/dev/null 2>&1
cmake -S . -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bt -j32 --target test_backend_ops test_update_rows >$O/build.log 2>&1 || { echo BUILD FAILED; tail -20 $O/build.log; }
echo "built $(date +%T), $NG GPUs"
export DEADLINE=$(( $(date +%s) + ${RC_BUDGET:-520} )) O
job() { # slot name program case pass size
  local slot=$1 n=$2 prog=$3 c=$4 ps=$5 sz=$6
  local left=$(( DEADLINE - $(date +%s) )) t0=$(date +%s)
  [ $left -lt 10 ] && { echo "$n: not started"; return; }
  CUDA_VISIBLE_DEVICES=$(( slot % NG )) QRU_TEST_BACKEND=cuda CK_FORK=no QRU_TEST_QUICK=1 QRU_TEST_VERBOSE=1 \
    QRU_TEST_PASS=$ps QRU_TEST_SIZE=$sz CK_RUN_CASE=$c timeout $left \
    compute-sanitizer --tool racecheck --kernel-name kns=qru_ --error-exitcode 99 \
    /tmp/bt/tests/$prog >$O/race-$n.log 2>&1
  echo "$n: exit $? $(( $(date +%s) - t0 )) s (GPU $(( slot % NG ))): $(grep -E 'RACECHECK SUMMARY|Checks' $O/race-$n.log | tr '\n' ' ')"
}
export -f job; export NG
{
  echo "rows-fast test_update_rows fast '' ''"
  echo "rows-tiles test_update_rows tiles '' ''"
  for sz in 12 11 10; do for c in sweeps_t1 sweeps_t0; do for ps in 0 2 3 4 5; do
    echo "$c-p$ps-s$sz test_backend_ops $c $ps $sz"; done; done; done
  for c in panel_tp; do for ps in 0 1; do echo "$c-p$ps-s8 test_backend_ops $c $ps 8"; done; done
} > $O/jobs.txt
# two workers a GPU; a worker takes the next job from the list
W=$(( 2 * NG )); NJ=$(wc -l < $O/jobs.txt); echo 0 > $O/next
for w in $(seq 0 $(( W - 1 ))); do
  ( while :; do
      i=$(flock $O/next sh -c 'i=$(cat '$O'/next); echo $((i + 1)) > '$O'/next; echo $i')
      [ $i -ge $NJ ] && break
      eval job $w $(sed -n "$(( i + 1 ))p" $O/jobs.txt)
    done ) &
done | tee $O/racecheck.txt
wait
for f in $O/race-*.log; do [ $(stat -c %s $f) -gt 200000 ] && gzip $f; done
rm -f $O/build.log $O/cmake.log
cd $O && tar czf ../dev1.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev1.tgz $O/
