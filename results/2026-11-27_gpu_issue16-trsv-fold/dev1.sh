# The few-right-hand-side triangular solve with the block before folded
# out of the barriers (x(b) = y - M x(b-1) by each warp, M = inv(D_b)
# op(A)(b, b-1)): base = dc7f99c (base.tar.gz) against the working tree.
# cuda/backend_ops first (test_trsm_few: qru's kernel forced at every m,
# 1 .. 2100, every uplo / transa / diag, 1, 3, 8, 9 right-hand sides);
# bench_trsv_gpu (qru's op vs cuBLAS, same run) and bench_chol_gpu --gp,
# base and new alternating; then the whole ctest beside memcheck and
# racecheck of backend_ops' basic case (only qru_trsv_sf instrumented),
# with the time left.  Usage: bash dev1.sh OUT
set -u
O=$1; mkdir -p "$O"
D=$(dirname "$0"); T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ARGS=(); say() { :; }; source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=ON"
rm -rf /tmp/vb && mkdir -p /tmp/vb && tar xzf $D/base.tar.gz -C /tmp/vb
b() { cmake -S $1 -B $2 $C "${ARGS[@]}" >$2.log 2>&1 && cmake --build $2 -j${4:-4} ${3:+--target $3} >>$2.log 2>&1 || { echo "build failed $1"; grep -E "error" $2.log | head -5; }; }
b /tmp/vb /tmp/gb "bench_trsv_gpu bench_chol_gpu" 4 & b . /tmp/gn "" 12 & wait
el built
( cd /tmp/gn && QRU_TEST_BACKEND=cuda CK_RUN_CASE=basic timeout 120 ./tests/test_backend_ops > $O/backend_ops-basic.log 2>&1; echo "backend_ops basic (cuda) exit $?: $(tail -1 $O/backend_ops-basic.log)" )
grep -E "^/.*:F:|trsm_few" $O/backend_ops-basic.log | head -5
for rep in 1 2; do for v in gb gn; do
  timeout 90 /tmp/$v/bench/bench_trsv_gpu -r 21 > $O/trsv-$v-$rep.txt 2>&1; el "trsv $v $rep: $?"
done; done
for v in gb gn; do timeout 90 /tmp/$v/bench/bench_trsv_gpu -r 21 -s > $O/trsv-s-$v.txt 2>&1; el "trsv float $v: $?"; done
for rep in 1 2; do for v in gb gn; do
  timeout 60 /tmp/$v/bench/bench_chol_gpu --gp -r 15 -o $O/gp-$v-$rep > $O/gp-$v-$rep.log 2>&1
  echo "gp $v $rep exit $?: $(grep -E '^ *4096' $O/gp-$v-$rep.log | head -1)"
done; done
rm -rf $O/gp-g?-?
LEFT=$(( 570 - ($(date +%s) - T0) ))
el "ctest and sanitizers, $LEFT s"
for t in memcheck racecheck; do
  ( cd /tmp/gn && QRU_TEST_BACKEND=cuda CK_FORK=no CK_RUN_CASE=basic timeout $LEFT compute-sanitizer --tool $t \
      --kernel-name kns=qru_trsv_sf --error-exitcode 99 ./tests/test_backend_ops > $O/$t-basic.log 2>&1
    echo "$t basic: exit $?: $(grep -E 'SUMMARY|Checks' $O/$t-basic.log | tr '\n' ' ')" ) &
done
timeout $LEFT ctest --test-dir /tmp/gn --output-on-failure -j6 --timeout 300 > $O/ctest.log 2>&1
el "ctest exit $?"; grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $O/ctest.log | head
wait
