# Last call: the refactorisation's cost model with cuSOLVER's QR
# latency-bound (qr_elem): the AUTO choice at the two points of the
# side-by-side run where AUTO refactorised (removing rows, Q kept), and
# test_gp (the syrk op's 1 x 1 GEMM in the GP append) and
# test_update_auto on CUDA.  Usage: bash dev7.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name --format=csv,noheader
ARGS=(); say() { :; }; source scripts/gpu-deps >/dev/null 2>&1
cmake -S . -B build-a -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON "${ARGS[@]}" >/dev/null 2>&1 &&
  cmake --build build-a -j16 --target bench_remove_rows test_gp test_update_auto >/dev/null 2>&1 || echo build failed
for t in test_gp test_update_auto; do echo "$t: $(cd build-a && QRU_TEST_BACKEND=cuda timeout 40 ./tests/$t 2>&1 | tail -1)"; done
for pt in 8000,1000,200,0,1 4000,1000,100,0,1; do
  rm -rf $O/r; mkdir -p $O/r
  QRU_BENCH_ALG=auto timeout 30 build-a/bench/bench_remove_rows -P $pt -p d -r 3 -o $O/r >/dev/null 2>&1
  echo "auto $pt: $(grep -vE '^%' $O/r/*tus_d.txt | head -1)"
done
rm -rf $O/r
