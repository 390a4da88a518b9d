# The second queue in a green context leaving 4 SMs (working tree:
# QRU_CUDA_LANE_FREE_SMS, "green") with the tiles (merged pairs), against
# 3711f5c ("base1"): S4, S1 and S2 (double) alternating; then the whole
# CUDA suite (no sanitizers) and memcheck + synccheck of update_cols'
# tiles case and backend_ops' basic case (test_lanes), 2026-11-27.
# Usage: bash dev10.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tiles
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
rm -rf /tmp/src-green && mkdir -p /tmp/src-green
tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-green
[ -d /tmp/src-base1 ] || { mkdir -p /tmp/src-base1; tar -xzf $D/base1.tar.gz -C /tmp/src-base1; }
for t in base1 green; do
  (cmake -S /tmp/src-$t -B /tmp/bld-$t $C >/dev/null 2>&1 && cmake --build /tmp/bld-$t -j8 --target bench_add_cols bench_add_rows bench_remove_cols >/dev/null 2>&1 || echo "build $t failed") &
done
wait
run() { # run TREE NAME BENCH POINT PREC
  mkdir -p "$O/runs/$1$2$5$i"
  timeout 100 /tmp/bld-$1/bench/$3 -P "$4" -p $5 -r 5 -o "$O/runs/$1$2$5$i" >/dev/null 2>&1
  echo "$1 $5 $2 run $i: $(grep -vE '^%' "$O/runs/$1$2$5$i"/*tus_$5.txt 2>/dev/null | head -1)"
}
for i in 1 2 3; do
  for t in base1 green; do
    run $t S4 bench_add_cols 8000,3000,200,0,1 d
    run $t S1 bench_add_rows 8000,3000,200,0,0 d
    run $t S2 bench_remove_cols 6000,3000,200,0,0 d
  done
done | tee $O/shapes.txt
rm -rf $O/runs
QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_SAN_TESTS="cuda/update_cols cuda/backend_ops" QRU_SAN_CASES="tiles basic" QRU_SAN_TOOLS="memcheck synccheck" QRU_GPU_CHECK_BUDGET=500 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-green OUT=$O/gc timeout 560 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed" $O/gc/*ctest-cuda.log 2>/dev/null | head -3
grep -hE "\*\*\*Failed|Timeout" $O/gc/*ctest-cuda.log | head
cat $O/gc/*summary.txt 2>/dev/null | tail -15
cp $O/gc/*ctest-cuda.log $O/ctest-cuda.log 2>/dev/null; cp $O/gc/*summary.txt $O/ 2>/dev/null; cp $O/gc/*findings.txt $O/ 2>/dev/null; rm -rf $O/gc $O/gpu-check.log
