# The tiled column insertion (working tree, "tiles") against 3711f5c
# ("base1", the Givens sweeps), adding columns with Q in double (S4: k = 0,
# S3: k = 2980, a middle k, p = 32 and 64), S4 in float, S1 once (the
# tpqrt engine's refactor), then the whole CUDA suite without sanitizers,
# 2026-11-27.  Usage: bash dev2.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tiles
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
rm -rf /tmp/src-tiles && mkdir -p /tmp/src-tiles
tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-tiles
[ -d /tmp/src-base1 ] || { mkdir -p /tmp/src-base1; tar -xzf $D/base1.tar.gz -C /tmp/src-base1; }
for t in base1 tiles; do
  (cmake -S /tmp/src-$t -B /tmp/bld-$t $C >/dev/null 2>&1 && cmake --build /tmp/bld-$t -j8 --target bench_add_cols bench_add_rows >/dev/null 2>&1 || echo "build $t failed") &
done
wait
run() { # run TREE NAME BENCH POINT PREC
  mkdir -p "$O/runs/$1$2$5$i"
  timeout 100 /tmp/bld-$1/bench/$3 -P "$4" -p $5 -r 5 -o "$O/runs/$1$2$5$i" >/dev/null 2>&1
  echo "$1 $5 $2 run $i: $(grep -vE '^%' "$O/runs/$1$2$5$i"/*tus_$5.txt 2>/dev/null | head -1)"
}
for i in 1 2; do
  for t in base1 tiles; do
    run $t S4 bench_add_cols 8000,3000,200,0,1 d
    run $t K1500 bench_add_cols 8000,3000,200,1500,1 d
  done
done | tee $O/cols.txt
i=1
for t in base1 tiles; do
  run $t S3 bench_add_cols 8000,3000,200,2980,1 d
  run $t P32 bench_add_cols 8000,3000,32,0,1 d
  run $t P64 bench_add_cols 8000,3000,64,0,1 d
  run $t S4 bench_add_cols 8000,3000,200,0,1 s
  run $t S1 bench_add_rows 8000,3000,200,0,0 d
done | tee -a $O/cols.txt
grep -h "^% *set" $O/runs/base1S4d1/*tus_d.txt | head -1 > $O/columns.txt
rm -rf $O/runs
QRU_GPU_CHECK_SKIP_SAN=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-tiles OUT=$O/gc timeout 300 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed" $O/gc/*ctest-cuda.log 2>/dev/null | head -3
grep -hE "\*\*\*Failed|Timeout" $O/gc/*ctest-cuda.log | head
cp $O/gc/*ctest-cuda.log $O/ctest-cuda.log 2>/dev/null; rm -rf $O/gc $O/gpu-check.log
