# Where the tiles' time goes (S4, double, 2026-11-27): the working tree
# ("t"), and copies changed by sed (wrong results, times only): "noD"
# without the D blocks' QR, "sm" with R's part on the first queue
# (t.la = 0; D still on the second), "nob" without the commit's
# application to Q and d; "t" with QRU_UPDATE_PANEL_NB=32 and 48.
# Usage: bash dev4.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
for t in t noD sm nob; do
  rm -rf /tmp/src-$t && mkdir -p /tmp/src-$t
  tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$t
done
F=src/update/add_cols_tiles.c
sed -i 's/QRU_TRY(qru_upd_house(ctx, dt, h, h, nbd, D, mr, hh));/(void)D;/; s/QRU_TRY(qru_upd_house_merge(ctx, dt, h, h, nbd, hh));//; s/if (L - b > 0)$/if (0)/' /tmp/src-noD/$F
sed -i 's/t.la = 2; \/\* R.s part on the second queue \*\//t.la = 0;/' /tmp/src-sm/$F
sed -i 's/return qru_upd_act_apply(ctx, f, k, p, sa->tl);/return 0;/' /tmp/src-nob/src/update/add_cols.c
for t in noD sm; do diff /tmp/src-t/$F /tmp/src-$t/$F | grep -c "^>"; done
for t in t noD sm nob; do
  (cmake -S /tmp/src-$t -B /tmp/bld-$t $C >/dev/null 2>&1 && cmake --build /tmp/bld-$t -j4 --target bench_add_cols >/dev/null 2>&1 || echo "build $t failed") &
done
wait
run() { # run TREE NAME BENCH POINT PREC
  mkdir -p "$O/runs/$1$2$5$i"
  timeout 100 /tmp/bld-$1/bench/$3 -P "$4" -p $5 -r 5 -o "$O/runs/$1$2$5$i" >/dev/null 2>&1
  echo "$1 $5 $2 run $i: $(grep -vE '^%' "$O/runs/$1$2$5$i"/*tus_$5.txt 2>/dev/null | head -1)"
}
for i in 1 2; do
  for t in t noD sm nob; do run $t S4 bench_add_cols 8000,3000,200,0,1 d; done
  QRU_UPDATE_PANEL_NB=32 run t S4nb32 bench_add_cols 8000,3000,200,0,1 d
  QRU_UPDATE_PANEL_NB=48 run t S4nb48 bench_add_cols 8000,3000,200,0,1 d
done | tee $O/s4.txt
rm -rf $O/runs
