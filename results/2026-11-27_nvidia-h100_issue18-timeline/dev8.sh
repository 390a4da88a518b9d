# Blocked windows for k wider than the fused panels (299b4f5): the CUDA
# tests of the modification and the cost model, bench_modify's sets 0-2
# (double; k = 1 .. 256, n = 4000 .. 12000) with QRU_UPDATE_FAST and the
# policy's choice at k = 128 and 256 (QRU_BENCH_ALG=auto).
# Usage: bash dev8.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
cmake -S . -B /tmp/bn $C >$O/cmake-new.log 2>&1
cmake --build /tmp/bn -j16 --target bench_modify test_update_cost test_update_modify test_update_chain >$O/build-new.log 2>&1 || tail -30 $O/build-new.log
echo "built $(date +%T)"
export QRU_TEST_BACKEND=cuda
for t in update_cost update_modify update_chain; do
  timeout 240 /tmp/bn/tests/test_$t >$O/test-$t.log 2>&1
  echo "test_$t exit $?: $(grep -E 'Checks' $O/test-$t.log | tail -1)"
done
unset QRU_TEST_BACKEND
bm() { # tag [VAR=value] -- args
  local t=$1; shift
  mkdir -p $O/b/$t
  env "$@" timeout 200 /tmp/bn/bench/bench_modify -p d -r 7 --no-tut -o $O/b/$t >$O/b/$t.log 2>&1
  echo "== $t (exit $?)"; grep -vhE '^%' $O/b/$t/*tus_*.txt 2>/dev/null | head -9
}
bm sets QRU_X=0
for k in 128 256; do
  mkdir -p $O/b/auto$k
  QRU_BENCH_ALG=auto timeout 100 /tmp/bn/bench/bench_modify -p d -r 5 --no-tut -P 8000,3000,$k,0,1 -o $O/b/auto$k >$O/b/auto$k.log 2>&1
  echo "auto k $k: $(grep -vhE '^%' $O/b/auto$k/*tus_*.txt | head -1)"
done
echo "end $(date +%T)"
rm -f $O/build-new.log $O/cmake-new.log
cd $O && tar czf ../dev8.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev8.tgz $O/
