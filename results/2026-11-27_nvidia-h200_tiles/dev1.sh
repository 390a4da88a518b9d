# First call of the fourth session of 2026-11-27 on HEAD (3711f5c): the
# whole CUDA suite and the non-finite suite (scripts/gpu-check, no
# sanitizers; test_lanes in backend_ops/basic included), then the six
# shapes of issue 16 in double (default path, cuSOLVER in the same run).
# Usage: bash dev1.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-head OUT=$O/gc timeout 330 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed|nonfinite:" $O/gc/*summary.txt $O/gc/*ctest-cuda.log 2>/dev/null | head -6
grep -hE "\*\*\*Failed|Timeout" $O/gc/*ctest-cuda.log | head
grep -hE "backend_ops|lanes" $O/gc/*ctest-cuda.log | head -4
cp $O/gc/*ctest-cuda.log $O/ctest-cuda.log 2>/dev/null; rm -rf $O/gc
cmake -S . -B build-head -DQRU_BUILD_BENCH=ON >/dev/null 2>&1 && cmake --build build-head -j16 --target bench_add_rows bench_remove_cols bench_add_cols bench_remove_rows >/dev/null 2>&1 || echo bench build failed
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0 S3:bench_add_cols:8000,3000,200,2980,1 S4:bench_add_cols:8000,3000,200,0,1 S5:bench_remove_rows:12000,6000,100,0,1 S6:bench_remove_rows:8000,1000,200,0,1"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  mkdir -p "$O/runs/$name"
  timeout 120 build-head/bench/$bn -P "$pt" -p d -r 5 -o "$O/runs/$name" >"$O/runs/$name.log" 2>&1
  echo "d $name exit $?: $(grep -vE '^%' "$O/runs/$name"/*tus_d.txt 2>/dev/null | head -1)"
done | tee $O/shapes.txt
rm -rf $O/runs
