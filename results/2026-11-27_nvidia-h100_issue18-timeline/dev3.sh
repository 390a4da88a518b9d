# The modification's plan with look-ahead (HEAD 5c5914a): the CUDA tests
# of the modification and the cost model, then bench_modify at k = 64 and
# k = 8 (n = 8000, m = 3000, Q kept, double, 7 repeats) with an experiment
# patch (md-exp2.diff, not committed: QRU_EXP_MD=w,mult forces the pair of
# widths, QRU_EXP_NBH the lower QR's panel width, QRU_EXP_MD_PRINT=1
# prints the plan) over pairs and lower widths.  Usage: bash dev3.sh OUT
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_nvidia-h100_issue18-timeline; R=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
rm -rf /tmp/exp; mkdir -p /tmp/exp
tar --exclude='./build*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp
(cd /tmp/exp && patch -p1 < $R/$D/md-exp2.diff >/dev/null) || echo PATCH FAILED
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
( cmake -S /tmp/exp -B /tmp/be $C -DQRU_BUILD_TESTS=OFF >$O/cmake-exp.log 2>&1
  cmake --build /tmp/be -j6 --target bench_modify >$O/build-exp.log 2>&1 || tail -20 $O/build-exp.log ) &
cmake -S . -B /tmp/bn $C >$O/cmake-new.log 2>&1
cmake --build /tmp/bn -j10 --target test_update_cost test_update_modify test_update_chain >$O/build-new.log 2>&1 || tail -30 $O/build-new.log
wait
echo "built $(date +%T)"
export QRU_TEST_BACKEND=cuda
for t in update_cost update_modify update_chain; do
  timeout 200 /tmp/bn/tests/test_$t >$O/test-$t.log 2>&1
  echo "test_$t exit $?: $(grep -E 'Checks' $O/test-$t.log | tail -1)"
done
grep -E "modify.*predicted" $O/test-update_cost.log | head -12
unset QRU_TEST_BACKEND
echo "tests done $(date +%T)"
bm() { # tag k [VAR=value...]
  local t=$1 k=$2; shift 2
  mkdir -p $O/exp/$t
  env QRU_EXP_MD_PRINT=1 "$@" timeout 60 /tmp/be/bench/bench_modify -p d -r 7 --no-tut -P 8000,3000,$k,0,1 -o $O/exp/$t >$O/exp/$t.log 2>&1
  echo "$t exit $?: $(grep -m1 md_plan $O/exp/$t.log) | $(grep -vhE '^%' $O/exp/$t/*tus_d.txt 2>/dev/null | head -1)"
}
for rep in 1 2; do
  bm k64-auto-$rep 64
  bm k64-w64m2-nbh64-$rep 64 QRU_EXP_MD=64,2 QRU_EXP_NBH=64
  bm k64-w64m2-nbh32-$rep 64 QRU_EXP_MD=64,2 QRU_EXP_NBH=32
  bm k64-w32m3-$rep 64 QRU_EXP_MD=32,3
  bm k64-w32m3-nbh64-$rep 64 QRU_EXP_MD=32,3 QRU_EXP_NBH=64
  bm k64-w16m3-$rep 64 QRU_EXP_MD=16,3
  bm k64-w32m2-$rep 64 QRU_EXP_MD=32,2
  bm k64-w64m4-$rep 64 QRU_EXP_MD=64,4
  bm k8-auto-$rep 8
  bm k8-nbh8-$rep 8 QRU_EXP_NBH=8
  bm k8-w64m2-$rep 8 QRU_EXP_MD=64,2
  bm k8-w32m4-$rep 8 QRU_EXP_MD=32,4
  bm k8-w64m3-$rep 8 QRU_EXP_MD=64,3
  bm k1-auto-$rep 1
done
echo "end $(date +%T)"
cd $O && tar czf ../dev3.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev3.tgz $O/
