# Adding columns with the tiles and look-ahead: Q and d in place on the
# second queue after a backup (8a3aae3) against the tree before (694af31,
# base2.tar.gz, deleted after), in the same call: the CUDA tests of the
# updates, then bench_add_cols (QRU_UPDATE_FAST, Q kept, double): S4
# (8000 x 3000, 200 columns at k = 0) three times alternating, p = 200 at
# k = 1500, p = 64 at k = 0, S3 (k = 2980), and S4 in float, once each.
# Usage: bash dev2.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_gpu_issue16-s4-lanes
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
mkdir -p /tmp/base && tar xzf $D/base2.tar.gz -C /tmp/base
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
( cmake -S /tmp/base -B /tmp/bb $C -DQRU_BUILD_TESTS=OFF >$O/cmake-base.log 2>&1
  cmake --build /tmp/bb -j5 --target bench_add_cols >$O/build-base.log 2>&1 || tail -20 $O/build-base.log ) &
cmake -S . -B /tmp/bn $C >$O/cmake-new.log 2>&1
cmake --build /tmp/bn -j11 --target bench_add_cols test_update_cost test_update_cols test_update_chain test_update_forms test_update_auto test_alloc_faults >$O/build-new.log 2>&1 || tail -30 $O/build-new.log
wait
echo "built $(date +%T)"
export QRU_TEST_BACKEND=cuda
for t in update_cost update_cols update_chain update_forms update_auto alloc_faults; do
  timeout 240 /tmp/bn/tests/test_$t >$O/test-$t.log 2>&1
  echo "test_$t exit $?: $(grep -E 'Checks|injected' $O/test-$t.log | tail -1)"
done
grep -h "lookahead on" $O/test-update_cost.log | head -9
unset QRU_TEST_BACKEND
echo "tests done $(date +%T)"
bm() { # tag build precision point
  local t=$1 bd=$2 pr=$3 pt=$4
  mkdir -p $O/b/$t
  timeout 100 $bd/bench/bench_add_cols -p $pr -r 7 --no-tut -P $pt -o $O/b/$t >$O/b/$t.log 2>&1
  echo "== $t $pt (exit $?)"; grep -vhE '^%' $O/b/$t/*tus_*.txt 2>/dev/null | head -3
}
for rep in 1 2 3; do
  bm s4-base$rep /tmp/bb d 8000,3000,200,0,1
  bm s4-new$rep /tmp/bn d 8000,3000,200,0,1
done
for v in base new; do b=/tmp/bb; [ $v = new ] && b=/tmp/bn
  bm k1500-$v $b d 8000,3000,200,1500,1
  bm p64-$v $b d 8000,3000,64,0,1
  bm s3-$v $b d 8000,3000,200,2980,1
  bm s4f-$v $b s 8000,3000,200,0,1
done
echo "end $(date +%T)"
cd $O && tar czf ../dev2.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev2.tgz $O/
