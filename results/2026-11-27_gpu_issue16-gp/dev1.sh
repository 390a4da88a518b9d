# The GP append of one point at n = 4096 (bench_chol_gpu --gp, double):
# base = a8a4e61 (base.tar.gz; the diagonal of K by exp) against the
# working tree (4bde04a: the diagonal without exp), two runs each,
# alternating; then the working tree with gp-prof.patch (a sync and a host
# clock after each stage of qru_gp_insert, QRU_GP_PROF=1) for where the
# append's time goes; then synccheck of the 1000-update chains (fast_q,
# tiles_q) with only qru_ kernels instrumented (the ninth session's first
# call had no filter and stopped in cuBLAS's trsm).  Usage: bash dev1.sh OUT
set -u
O=$1; mkdir -p "$O"
D=$(dirname "$0")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ARGS=(); say() { :; }; source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=ON"
rm -rf /tmp/vb /tmp/vp && mkdir -p /tmp/vb /tmp/vp && tar xzf $D/base.tar.gz -C /tmp/vb
R=$(pwd); T0=$(date +%s)
cp -a . /tmp/vp && rm -rf /tmp/vp/.deps /tmp/vp/results
(cd /tmp/vp && { git apply $R/$D/gp-prof.patch 2>/dev/null || patch -p1 -s < $R/$D/gp-prof.patch; }) || echo "patch failed"
b() { cmake -S $1 -B $2 $C "${ARGS[@]}" >$2.log 2>&1 && cmake --build $2 -j6 --target $3 >>$2.log 2>&1 || { echo "build failed $1"; tail -5 $2.log; }; }
b /tmp/vb /tmp/gb bench_chol_gpu & b . /tmp/gn "bench_chol_gpu test_update_chain" & b /tmp/vp /tmp/gp bench_chol_gpu & wait
echo "built $(date +%T)"
for rep in 1 2; do for v in gb gn; do
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
{ for s in fast_q tiles_q; do (
  t0=$(date +%s)
  QRU_TEST_BACKEND=cuda CK_FORK=no QRU_TEST_CHAIN_UPDATES=1000 QRU_TEST_VERBOSE=1 CK_RUN_CASE=$s timeout $(( 560 - ($(date +%s) - T0) )) \
    compute-sanitizer --tool synccheck --kernel-name kns=qru_ --error-exitcode 99 /tmp/gn/tests/test_update_chain > $O/synccheck-$s.log 2>&1
  echo "synccheck $s: exit $? $(( $(date +%s) - t0 )) s: $(grep -E 'SUMMARY|Checks' $O/synccheck-$s.log | tr '\n' ' ')" ) & done; wait; } > $O/synccheck.txt
cat $O/synccheck.txt
rm -rf $O/g?-? $O/gp-prof
