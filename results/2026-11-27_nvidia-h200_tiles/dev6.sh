# The tiles with each pair merged for the commit (dev6; else as dev3):
# ("tiles3", the working tree: the merged pairs) against 3711f5c ("base1"), and
# "tiles3-nob": the same without the commit's application to Q and d
# (wrong results, the time of the rest alone; a sed on the copy), S4 at
# p = 96, 128 and 200, k = 0 and 1500, float, QRU_LOOKAHEAD=off once, S3
# and p = 64, 2026-11-27.  Usage: bash dev6.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tiles
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
for t in tiles3 tiles3-nob; do
  rm -rf /tmp/src-$t && mkdir -p /tmp/src-$t
  tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$t
done
sed -i 's/return qru_upd_act_apply(ctx, f, k, p, sa->tl);/return 0;/' /tmp/src-tiles3-nob/src/update/add_cols.c
grep -c "return 0;" /tmp/src-tiles3-nob/src/update/add_cols.c
[ -d /tmp/src-base1 ] || { mkdir -p /tmp/src-base1; tar -xzf $D/base1.tar.gz -C /tmp/src-base1; }
for t in base1 tiles3 tiles3-nob; do
  (cmake -S /tmp/src-$t -B /tmp/bld-$t $C >/dev/null 2>&1 && cmake --build /tmp/bld-$t -j5 --target bench_add_cols >/dev/null 2>&1 || echo "build $t failed") &
done
wait
run() { # run TREE NAME BENCH POINT PREC
  mkdir -p "$O/runs/$1$2$5$i"
  timeout 100 /tmp/bld-$1/bench/$3 -P "$4" -p $5 -r 5 -o "$O/runs/$1$2$5$i" >/dev/null 2>&1
  echo "$1 $5 $2 run $i: $(grep -vE '^%' "$O/runs/$1$2$5$i"/*tus_$5.txt 2>/dev/null | head -1)"
}
for i in 1 2; do
  for t in base1 tiles3 tiles3-nob; do
    run $t S4 bench_add_cols 8000,3000,200,0,1 d
  done
  for t in base1 tiles3; do
    run $t K1500 bench_add_cols 8000,3000,200,1500,1 d
    run $t P128 bench_add_cols 8000,3000,128,0,1 d
  done
done | tee $O/cols.txt
i=1
for t in base1 tiles3; do
  run $t S4 bench_add_cols 8000,3000,200,0,1 s
  run $t P96 bench_add_cols 8000,3000,96,0,1 d
done | tee -a $O/cols.txt
QRU_LOOKAHEAD=off run tiles3 S4-laoff bench_add_cols 8000,3000,200,0,1 d | tee -a $O/cols.txt
i=1
for t in base1 tiles3; do
  run $t S3 bench_add_cols 8000,3000,200,2980,1 d
  run $t P64 bench_add_cols 8000,3000,64,0,1 d
done | tee -a $O/cols.txt
rm -rf $O/runs
