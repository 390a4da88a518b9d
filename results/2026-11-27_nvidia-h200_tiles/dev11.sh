# The committed tree (tiles from p = 64 on CUDA): the whole CUDA suite and
# the non-finite suite, memcheck and synccheck of update_cols' tiles case
# and update_cost, then the six shapes of issue 16 in double and float
# (default path, cuSOLVER in the same run), 2026-11-27.  Usage: bash dev11.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
QRU_SAN_TESTS="update_cols update_cost" QRU_SAN_CASES="tiles update_cost" QRU_SAN_TOOLS="memcheck synccheck" QRU_GPU_CHECK_BUDGET=330 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-final OUT=$O/gc timeout 380 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed|nonfinite:" $O/gc/*summary.txt $O/gc/*ctest-cuda.log 2>/dev/null | head -4
grep -hE "\*\*\*Failed|Timeout" $O/gc/*ctest-cuda.log | head
grep -hiE "sanitizer|findings|memcheck|synccheck" $O/gc/*summary.txt | head -12
cp $O/gc/*ctest-cuda.log $O/ctest-cuda.log 2>/dev/null; cp $O/gc/*summary.txt $O/gc/*findings.txt $O/ 2>/dev/null; rm -rf $O/gc $O/gpu-check.log
cmake -S . -B build-final -DQRU_BUILD_BENCH=ON >/dev/null 2>&1 && cmake --build build-final -j16 --target bench_add_rows bench_remove_cols bench_add_cols bench_remove_rows >/dev/null 2>&1 || echo bench build failed
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0 S3:bench_add_cols:8000,3000,200,2980,1 S4:bench_add_cols:8000,3000,200,0,1 S5:bench_remove_rows:12000,6000,100,0,1 S6:bench_remove_rows:8000,1000,200,0,1"
for pr in d s; do
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  mkdir -p "$O/runs/$pr$name"
  timeout 100 build-final/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$pr$name" >/dev/null 2>&1
  echo "$pr $name exit $?: $(grep -vE '^%' "$O/runs/$pr$name"/*tus_$pr.txt 2>/dev/null | head -1)"
done
done | tee $O/shapes.txt
rm -rf $O/runs
