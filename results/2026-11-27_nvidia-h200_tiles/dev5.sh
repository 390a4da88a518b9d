# Nsight Compute kernel times (scripts/gpu-kernel-times, -r 1: warm-up,
# update, refactorisation) of S3 and S4 (double, with Q) on the working
# tree (the tiles), 2026-11-27.  Usage: bash dev5.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
cmake -S . -B build-k $C >/dev/null 2>&1 && cmake --build build-k -j16 --target bench_add_cols >/dev/null 2>&1 || echo build failed
OUT=$O timeout 200 bash scripts/gpu-kernel-times build-k S3 bench_add_cols -P 8000,3000,200,2980,1 -p d -r 1
OUT=$O timeout 330 bash scripts/gpu-kernel-times build-k S4 bench_add_cols -P 8000,3000,200,0,1 -p d -r 1
rm -f $O/*.ncu.csv; rm -rf $O/*-bench
for f in $O/*.kernels.txt; do echo "== $f"; head -30 $f; done
