# Experiment: the second queue in a green context that leaves a few SMs
# free (green-lane.diff, applied to a copy; QRU_EXP_GREEN_FREE SMs free,
# rounded so the lane gets a multiple of 8), against the working tree,
# S4 (the tiles, with Q) and S1 (adding rows, R only), double, alternating,
# 2026-11-27 (dev8: the diff reports why a green context is not made).  Usage: bash dev8.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tiles
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
for t in t g; do
  rm -rf /tmp/src-$t && mkdir -p /tmp/src-$t
  tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$t
done
patch -d /tmp/src-g -p1 < $D/green-lane.diff | tail -1
grep -c QRU_EXP_GREEN_FREE /tmp/src-g/cuda/cuda_backend.cu
for t in t g; do
  (cmake -S /tmp/src-$t -B /tmp/bld-$t $C >/dev/null 2>&1 && cmake --build /tmp/bld-$t -j8 --target bench_add_cols bench_add_rows >/dev/null 2>&1 || echo "build $t failed") &
done
wait
run() { # run TREE NAME BENCH POINT PREC
  mkdir -p "$O/runs/$1$2$5$i"
  timeout 100 /tmp/bld-$1/bench/$3 -P "$4" -p $5 -r 5 -o "$O/runs/$1$2$5$i" >/dev/null 2>"$O/runs/$1$2$5$i/err"
  echo "$1 $5 $2 run $i: $(grep -vE '^%' "$O/runs/$1$2$5$i"/*tus_$5.txt 2>/dev/null | head -1) $(grep -m1 green "$O/runs/$1$2$5$i/err")"
}
for i in 1 2; do
  run t S4 bench_add_cols 8000,3000,200,0,1 d
  QRU_EXP_GREEN_FREE=4 run g S4f4 bench_add_cols 8000,3000,200,0,1 d
  run t S1 bench_add_rows 8000,3000,200,0,0 d
  QRU_EXP_GREEN_FREE=4 run g S1f4 bench_add_rows 8000,3000,200,0,0 d
done | tee $O/green.txt
rm -rf $O/runs
