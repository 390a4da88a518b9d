# Removing rows by the tiles (working tree) against the Givens sweeps
# (the same build with QRU_UPDATE_TILES_MIN_P=0), S5, S6 and S6's shape at
# p = 64 and 128, double (and S5, S6 in float once), alternating; then
# the CUDA tests of the updates (update_rows' tiles case included),
# 2026-11-27.  Usage: bash dev12.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
cmake -S . -B build-rr $C >/dev/null 2>&1 && cmake --build build-rr -j16 >/dev/null 2>&1 || echo build failed
run() { # run NAME MINP POINT PREC
  mkdir -p "$O/runs/$1$2$4$i"
  QRU_UPDATE_TILES_MIN_P=$2 timeout 100 build-rr/bench/bench_remove_rows -P "$3" -p $4 -r 5 -o "$O/runs/$1$2$4$i" >/dev/null 2>&1
  echo "minp=$2 $4 $1 run $i: $(grep -vE '^%' "$O/runs/$1$2$4$i"/*tus_$4.txt 2>/dev/null | head -1)"
}
for i in 1 2; do
  for t in 0 64; do
    run S5 $t 12000,6000,100,0,1 d
    run S6 $t 8000,1000,200,0,1 d
    run P64 $t 8000,1000,64,0,1 d
    run P128 $t 8000,1000,128,0,1 d
  done
done | tee $O/rows.txt
i=1
for t in 0 64; do run S5 $t 12000,6000,100,0,1 s; run S6 $t 8000,1000,200,0,1 s; done | tee -a $O/rows.txt
rm -rf $O/runs
(cd build-rr && timeout 250 ctest -R "cuda/update_|cuda/backend_ops" 2>&1 | tail -6) | tee $O/ctest.txt
