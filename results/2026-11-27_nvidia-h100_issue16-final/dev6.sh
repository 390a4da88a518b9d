# The Householder block of the tall QR of the fast updates (double):
# adding columns (S3, S4: Z = Q(:, m:n)' U, 5000 x 200; the block is
# qru_upd_nb = p/10 = 20 now) with the block set to 64 and 32 in copies
# of the tree (sed on add_cols.c, timing only), and removing rows (S5:
# 6000 x 100, S6: 7000 x 200; QRU_TUNE_UPDATE_ROWS_NB = 128 now) with
# QRU_UPDATE_ROWS_NB = 128, 64, 32.  Usage: bash dev6.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ARGS=(); say() { :; }; source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF"
for v in 64 32; do
  rm -rf /tmp/v$v && mkdir -p /tmp/v$v
  tar cf - --exclude='./build*' --exclude=./.deps --exclude=./results . | tar xf - -C /tmp/v$v
  sed -i "s|    int nb = qru_upd_nb(f, p);|    int nb = p < $v ? p : $v;|" /tmp/v$v/src/update/add_cols.c
  echo "v$v: $(grep -c "int nb = p < $v ? p : $v;" /tmp/v$v/src/update/add_cols.c) lines"
done
b() { cmake -S $1 -B $2 $C "${ARGS[@]}" >$2.log 2>&1 && cmake --build $2 -j6 --target $3 >>$2.log 2>&1 || echo "build failed $1"; }
b . build-h "bench_add_cols bench_remove_rows" & b /tmp/v64 build-v64 bench_add_cols & b /tmp/v32 build-v32 bench_add_cols & wait
row() { grep -vE '^%' $1/*tus_d.txt 2>/dev/null | head -1 | awk '{printf "t=%.2f ms sp=%.2f spq=%.2f calls=%s err=%s", $8*1e3, $11, $12, $(NF-1), $NF}'; }
for rep in 1; do
for s in S3:8000,3000,200,2980,1 S4:8000,3000,200,0,1; do
  IFS=: read -r name pt <<<"$s"
  for v in h v64 v32; do
    mkdir -p $O/r; rm -rf $O/r/*
    timeout 60 build-$v/bench/bench_add_cols -P $pt -p d -r 5 -o $O/r >/dev/null 2>&1
    echo "$name $v: $(row $O/r)"
  done
done
for s in S5:12000,6000,100,0,1 S6:8000,1000,200,0,1; do
  IFS=: read -r name pt <<<"$s"
  for nb in 128 64 32; do
    rm -rf $O/r/*
    QRU_UPDATE_ROWS_NB=$nb timeout 60 build-h/bench/bench_remove_rows -P $pt -p d -r 5 -o $O/r >/dev/null 2>&1
    echo "$name rows_nb=$nb: $(row $O/r)"
  done
done
done
rm -rf $O/r
