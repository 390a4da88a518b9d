# The W recurrence with four partial sums (one was a chain of j dependent
# FMAs) and the shared-memory opt-in less a kernel's static part (the
# working tree, "bc") against HEAD ("base", dev16), 2026-11-27: panel
# tests, bench_panel, S1/S2 (double: base, bc, reg; float: bc, reg), the
# whole CUDA suite of bc, memcheck / synccheck / initcheck of the panel
# cases (double and float, QRU_TEST_QUICK) with only the chain kernel
# instrumented.  Usage: bash dev18.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h100_s1-timeline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
rm -rf /tmp/exp-base; mkdir -p /tmp/exp-base
tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-base
cp $D/base-chain.cuh.tmp /tmp/exp-base/cuda/cuda_panel_chain.cuh
( cmake -S /tmp/exp-base -B /tmp/bld-base $C >$O/cmake-base.log 2>&1
  cmake --build /tmp/bld-base -j4 --target bench_panel bench_add_rows bench_remove_cols >$O/build-base.log 2>&1 || tail -20 $O/build-base.log ) &
cmake -S . -B build-bc $C >$O/cmake-bc.log 2>&1
cmake --build build-bc -j12 >$O/build-bc.log 2>&1 || tail -30 $O/build-bc.log
wait
for c in panel_t0 panel_t1; do
  echo "bc $c: $(CK_RUN_CASE=$c timeout 90 build-bc/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
for b in /tmp/bld-base build-bc; do
  echo "== $b"; timeout 40 $b/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)"
done | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base:/tmp/bld-base:auto:d bc:build-bc:auto:d reg:build-bc:reg:d bc:build-bc:auto:s reg:build-bc:reg:s; do
    IFS=: read -r vn b pk pr <<<"$v"
    mkdir -p "$O/runs/$vn$pr/$name"
    QRU_PANEL_KERNEL=$pk timeout 40 $b/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs
(cd build-bc && timeout 240 ctest -R '^cuda/' -j4 --timeout 200 >$O/ctest-bc.log 2>&1) &
san() {
  CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=$2 timeout 200 \
    compute-sanitizer --tool $1 --kernel-name kns=qru_panel_qr_chain --error-exitcode 99 \
    build-bc/tests/test_backend_ops >$O/san-$1-$2.log 2>&1
  echo "$1 $2 (chain kernel): exit $? $(grep -E 'ERROR SUMMARY|Checks' $O/san-$1-$2.log | tr '\n' ' ')"
}
( san memcheck panel_t0; san memcheck panel_t1 ) > $O/san1.txt &
( san synccheck panel_t0; san initcheck panel_t1 ) > $O/san2.txt &
wait
cat $O/san1.txt $O/san2.txt | tee $O/sanitizers.txt
grep -E "tests passed|tests failed|Failed|Timeout" $O/ctest-bc.log | head -8
rm -f $O/cmake-*.log $O/build-*.log $O/san1.txt $O/san2.txt
for f in $O/san-*.log; do echo "== $f (last lines)"; tail -8 $f; done >> $O/sanitizers.txt; rm -f $O/san-*.log
