# Look-ahead in adding rows and removing columns (the working tree, "la4")
# against 50bf09b ("base17"): the whole CUDA suite and the non-finite suite
# through scripts/gpu-check (no sanitizers), then S1 and S2 (double, R
# only) alternating, 3 runs each, and S1/S2 with Q and in float once,
# 2026-11-27.  Usage: bash dev20.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_lookahead
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
rm -rf /tmp/src-la4 && mkdir -p /tmp/src-la4
tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-la4
[ -d /tmp/src-base17 ] || { mkdir -p /tmp/src-base17; tar -xzf $D/base17.tar.gz -C /tmp/src-base17; }
for t in base17 la4; do
  (cmake -S /tmp/src-$t -B /tmp/bld-$t $C >/dev/null 2>&1 && cmake --build /tmp/bld-$t -j3 --target bench_add_rows bench_remove_cols >/dev/null 2>&1) &
done
wait
run() { # run TREE NAME BENCH POINT PREC
  mkdir -p "$O/runs/$1$2$5$i"
  timeout 90 /tmp/bld-$1/bench/$3 -P "$4" -p $5 -r 5 -o "$O/runs/$1$2$5$i" >/dev/null 2>&1
  echo "$1 $5 $2 run $i: $(grep -vE '^%' "$O/runs/$1$2$5$i"/*tus_$5.txt 2>/dev/null | head -1)"
}
for i in 1 2 3; do
  for t in base17 la4; do
    run $t S1 bench_add_rows 8000,3000,200,0,0 d
    run $t S2 bench_remove_cols 6000,3000,200,0,0 d
  done
done | tee $O/s1s2.txt
i=1
for t in base17 la4; do
  run $t S1 bench_add_rows 8000,3000,200,0,0 s
  run $t S2 bench_remove_cols 6000,3000,200,0,0 s
  run $t S1q bench_add_rows 8000,3000,200,0,1 d
  run $t S2q bench_remove_cols 6000,3000,200,0,1 d
done | tee -a $O/s1s2.txt
rm -rf $O/runs
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-la4 OUT=$O/gc timeout 240 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed|nonfinite:" $O/gc/*summary.txt $O/gc/*ctest-cuda.log 2>/dev/null | head -6
grep -hE "\*\*\*Failed|Timeout" $O/gc/*ctest-cuda.log | head
cp $O/gc/*ctest-cuda.log $O/ctest-cuda.log 2>/dev/null; rm -rf $O/gc $O/gpu-check.log
