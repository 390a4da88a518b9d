# The full form's Q and d in place on the second queue (8e5c8ce) against
# the tree before (4d7c3ca, base7.tar.gz, deleted after), in the same
# call: the CUDA tests of the modification (and the non-finite suite),
# bench_modify set 0 (double, three times alternating; float once each).
# Usage: bash dev7.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_nvidia-h100_issue18-timeline; R=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
mkdir -p /tmp/base && tar xzf $D/base7.tar.gz -C /tmp/base
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
( cmake -S /tmp/base -B /tmp/bb $C -DQRU_BUILD_TESTS=OFF >$O/cmake-base.log 2>&1
  cmake --build /tmp/bb -j5 --target bench_modify >$O/build-base.log 2>&1 || tail -20 $O/build-base.log ) &
cmake -S . -B /tmp/bn $C >$O/cmake-new.log 2>&1
cmake --build /tmp/bn -j11 --target bench_modify test_update_cost test_update_modify test_update_chain test_update_forms test_nonfinite >$O/build-new.log 2>&1 || tail -30 $O/build-new.log
wait
echo "built $(date +%T)"
export QRU_TEST_BACKEND=cuda
for t in update_cost update_modify update_chain update_forms nonfinite; do
  timeout 240 /tmp/bn/tests/test_$t >$O/test-$t.log 2>&1
  echo "test_$t exit $?: $(grep -E 'Checks' $O/test-$t.log | tail -1)"
done
unset QRU_TEST_BACKEND
echo "tests done $(date +%T)"
bm() { # tag build program precision [args...]
  local t=$1 bd=$2 pg=$3 pr=$4; shift 4
  mkdir -p $O/b/$t
  timeout 120 $bd/bench/$pg -p $pr -r 7 --no-tut "$@" -o $O/b/$t >$O/b/$t.log 2>&1
  echo "== $t (exit $?)"; grep -vhE '^%' $O/b/$t/*tus_*.txt 2>/dev/null | head -9
}
for rep in 1 2 3; do
  bm modify-base$rep /tmp/bb bench_modify d --no-sweeps
  bm modify-new$rep /tmp/bn bench_modify d --no-sweeps
done
bm modify-base-float /tmp/bb bench_modify s --no-sweeps
bm modify-new-float /tmp/bn bench_modify s --no-sweeps
echo "end $(date +%T)"
cd $O && tar czf ../dev7.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev7.tgz $O/
