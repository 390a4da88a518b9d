# panel_apply_tp with its loads batched (the working tree, "tp") against
# 33ec6a8 ("base", base5.tar.gz): the panel
# tests on CUDA, S1 (R only and Q kept, double and float) and S2, then
# scripts/gpu-check without sanitizers (the whole CUDA suite and the
# non-finite suite) on the working tree, 2026-11-27.
# Usage: bash dev6.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tensor-panel
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
rm -rf /tmp/src-base; mkdir -p /tmp/src-base; tar -xzf $D/base5.tar.gz -C /tmp/src-base
( cmake -S /tmp/src-base -B /tmp/bld-base $C >$O/cmake-base.log 2>&1
  cmake --build /tmp/bld-base -j5 --target bench_add_rows bench_remove_cols >$O/build-base.log 2>&1 || tail -20 $O/build-base.log ) &
cmake -S . -B build-tp $C >$O/cmake-tp.log 2>&1
cmake --build build-tp -j11 >$O/build-tp.log 2>&1 || tail -30 $O/build-tp.log
wait
for c in panel_apply panel_tp panel_t0 panel_t1; do
  echo "tp $c: $(CK_RUN_CASE=$c timeout 120 build-tp/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S1q:bench_add_rows:8000,3000,200,0,1 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base:/tmp/bld-base:d tp:build-tp:d base:/tmp/bld-base:s tp:build-tp:s; do
    IFS=: read -r vn b pr <<<"$v"
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 60 $b/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
head -3 $O/runs/tpd/S1/*tus_d.txt > $O/columns.txt 2>/dev/null
rm -rf $O/runs
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=ON BUILD=build-tp \
  OUT=$O/gc timeout 420 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed|nonfinite" $O/gc/*summary.txt $O/gc/*ctest-cuda.log 2>/dev/null | head -6
grep -hE "\*\*\*Failed|Timeout|:F:|:E:" $O/gc/*ctest-cuda.log | head
cp $O/gc/*ctest-cuda.log $O/ctest-cuda.log 2>/dev/null; rm -rf $O/gc $O/gpu-check.log
rm -f $O/cmake-*.log $O/build-*.log
