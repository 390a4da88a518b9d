# The choice between tiles and sweeps by the cost model (working tree,
# QRU_UPDATE_TILES=auto, the default): which path each shape takes (the
# calls column tells them apart) and its time, with the forced paths
# beside it (on / off), double; then the CUDA tests of the updates,
# 2026-11-27.  Usage: bash dev13.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
cmake -S . -B build-auto $C >/dev/null 2>&1 && cmake --build build-auto -j16 >/dev/null 2>&1 || echo build failed
run() { # run NAME MODE BENCH POINT
  mkdir -p "$O/runs/$1$2"
  QRU_UPDATE_TILES=$2 timeout 100 build-auto/bench/$3 -P "$4" -p d -r 5 -o "$O/runs/$1$2" >/dev/null 2>&1
  echo "$2 $1: $(grep -vE '^%' "$O/runs/$1$2"/*tus_d.txt 2>/dev/null | head -1)"
}
for s in S4:bench_add_cols:8000,3000,200,0,1 S3:bench_add_cols:8000,3000,200,2980,1 P64c:bench_add_cols:8000,3000,64,0,1 P16c:bench_add_cols:8000,3000,16,0,1 S5:bench_remove_rows:12000,6000,100,0,1 S6:bench_remove_rows:8000,1000,200,0,1 P128r:bench_remove_rows:8000,1000,128,0,1 P16r:bench_remove_rows:8000,1000,16,0,1; do
  IFS=: read -r name bn pt <<<"$s"
  for mode in auto on off; do run $name $mode $bn $pt; done
done | tee $O/auto.txt
rm -rf $O/runs
(cd build-auto && timeout 200 ctest -R "cuda/update_(cols|rows|cost|forms)" 2>&1 | tail -5) | tee $O/ctest.txt
