# After the review (2026-11-26): the trsv threshold folded into the tuning
# block (QRU_TUNE_TRSV_MIN_M / QRU_TRSV_MIN_M) and test_trsm_few run three
# times on CUDA (default threshold, qru's kernel at every m, cuBLAS
# everywhere).  backend_ops' basic case, the gp and chol tests, and the
# GP append with the default and with QRU_TRSV_MIN_M=0 (cuBLAS).
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
say() { echo "$*"; }
ARGS=(-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF)
source scripts/gpu-deps
cmake -S . -B build-rv "${ARGS[@]}" >$O/cmake.log 2>&1 || tail -20 $O/cmake.log
cmake --build build-rv -j16 --target test_backend_ops test_gp test_chol bench_chol_gpu >$O/build.log 2>&1 || tail -30 $O/build.log
export QRU_TEST_BACKEND=cuda
CK_RUN_CASE=basic timeout 200 build-rv/tests/test_backend_ops 2>&1 | tail -3 | tee $O/backend_ops_basic.txt
for t in gp chol; do timeout 200 build-rv/tests/test_$t 2>&1 | tail -1; done | tee $O/gp_chol.txt
for v in default 0 default 0; do
  if [ $v = 0 ]; then export QRU_TRSV_MIN_M=0; else unset QRU_TRSV_MIN_M; fi
  echo "== QRU_TRSV_MIN_M=$v"
  timeout 60 build-rv/bench/bench_chol_gpu --gp -r 21 2>&1 | grep -E "^ *4096 "
done | tee $O/gp_append.txt
