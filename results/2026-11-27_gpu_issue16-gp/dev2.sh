# The GP append of one point at n = 4096 (bench_chol_gpu --gp, double):
# base = 4bde04a (base2.tar.gz: the syrk op's n = 1 by cuBLAS's 1 x 1 GEMM)
# against the working tree (qru_syrk1: one block's dot), three runs each,
# alternating; the working tree with gp-prof.patch (QRU_GP_PROF=1: a sync
# and a host clock after each stage of qru_gp_insert); backend_ops' basic
# case (syrk n = 1), test_gp and test_chol on CUDA; then the whole suite
# (ctest, CUDA and CPU) with the time left.  Usage: bash dev2.sh OUT
set -u
O=$1; mkdir -p "$O"
D=$(dirname "$0"); R=$(pwd); T0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ARGS=(); say() { :; }; source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=ON"
rm -rf /tmp/vb /tmp/vp && mkdir -p /tmp/vb /tmp/vp && tar xzf $D/base2.tar.gz -C /tmp/vb
cp -a . /tmp/vp && rm -rf /tmp/vp/.deps /tmp/vp/results
(cd /tmp/vp && { git apply $R/$D/gp-prof.patch 2>/dev/null || patch -p1 -s < $R/$D/gp-prof.patch; }) || echo "patch failed"
b() { cmake -S $1 -B $2 $C "${ARGS[@]}" >$2.log 2>&1 && cmake --build $2 -j${4:-4} ${3:+--target $3} >>$2.log 2>&1 || { echo "build failed $1"; grep -E "error" $2.log | head -5; }; }
b /tmp/vb /tmp/gb bench_chol_gpu & b /tmp/vp /tmp/gp bench_chol_gpu & b . /tmp/gn "" 10 & wait
echo "built $(( $(date +%s) - T0 )) s"
for rep in 1 2 3; do for v in gb gn; do
  timeout 60 /tmp/$v/bench/bench_chol_gpu --gp -r 15 -o $O/$v-$rep > $O/$v-$rep.log 2>&1
  echo "$v $rep exit $?: $(grep -E '^ *4096' $O/$v-$rep.log | head -1)"
done; done
QRU_GP_PROF=1 timeout 60 /tmp/gp/bench/bench_chol_gpu --gp -r 9 -o $O/gp-prof > $O/gp-prof.log 2>&1
echo "prof exit $?: $(grep -E '^ *4096' $O/gp-prof.log | head -1)"
grep gpprof $O/gp-prof.log | awk '{t[$2]=t[$2]" "$3} END {for (k in t) print k, t[k]}' | \
  python3 -c '
import sys
for l in sys.stdin:
    w=l.split(); v=sorted(float(x) for x in w[1:]); print("%-10s median %8.1f us  (%d samples, min %.1f max %.1f)"%(w[0], v[len(v)//2], len(v), v[0], v[-1]))'
( cd /tmp/gn && QRU_TEST_BACKEND=cuda CK_RUN_CASE=basic timeout 60 ./tests/test_backend_ops 2>&1 | tail -3 )
for t in test_gp test_chol; do ( cd /tmp/gn && QRU_TEST_BACKEND=cuda timeout 100 ./tests/$t 2>&1 | tail -1 | sed "s/^/$t cuda: /" ); done
echo "ctest from $(( $(date +%s) - T0 )) s"
timeout $(( 575 - ($(date +%s) - T0) )) ctest --test-dir /tmp/gn --output-on-failure -j8 --timeout 300 > $O/ctest.log 2>&1
echo "ctest exit $? at $(( $(date +%s) - T0 )) s"
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $O/ctest.log | head
rm -rf $O/g?-? $O/gp-prof
