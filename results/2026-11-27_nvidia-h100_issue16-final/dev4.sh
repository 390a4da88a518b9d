# Nsight Compute kernel times (scripts/gpu-kernel-times, -r 1: warm-up,
# update, the untimed run that counts calls, and the refactorisation) of
# S6, S5 and S1 (double) and of the GP append (bench_chol_gpu --gp) on
# the final tree, for "what stands between each shape and its target".
# Usage: bash dev4.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF"
cmake -S . -B build-k $C >/dev/null 2>&1 && cmake --build build-k -j16 --target bench_add_rows bench_remove_rows bench_chol_gpu >/dev/null 2>&1 || echo build failed
OUT=$O timeout 120 bash scripts/gpu-kernel-times build-k S6 bench_remove_rows -P 8000,1000,200,0,1 -p d -r 1 >/dev/null
OUT=$O timeout 150 bash scripts/gpu-kernel-times build-k S5 bench_remove_rows -P 12000,6000,100,0,1 -p d -r 1 >/dev/null
OUT=$O timeout 120 bash scripts/gpu-kernel-times build-k S1 bench_add_rows -P 8000,3000,200,0,0 -p d -r 1 >/dev/null
OUT=$O QRU_NCU_MAX=3000 timeout 100 bash scripts/gpu-kernel-times build-k gp bench_chol_gpu --gp -r 1 >/dev/null
rm -f $O/*.ncu.csv; rm -rf $O/*-bench
for f in $O/*.kernels.txt; do echo "== $f"; head -14 $f | cut -c1-150; done
