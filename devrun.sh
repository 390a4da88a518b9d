#!/bin/bash
# merged-tree verification: cuda tests, memcheck on complex GPU tests, NVIDIA OpenCL subset
set -u
export OUT=${OUT:-/tmp/g}
T0=$(date +%s)
QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_SKIP_OPENCL=1 \
QRU_SAN_TOOLS=memcheck QRU_SAN_TESTS="chol_complex lsq_batch_complex complex" QRU_SAN_JOBS=3 QRU_SAN_TIMEOUT=240 \
QRU_BENCH_BUDGET=0 QRU_BENCH_OTHERS=0 bash scripts/gpu-check 2>&1 | grep --line-buffered -E "error|FAIL|Error|summary|finding|NOT RUN|passed|failed|ERROR" | head -60
echo "== after build+san $(( $(date +%s) - T0 )) s"
cd build-gpu && QRU_TEST_BACKEND=cuda ctest -j12 --timeout 300 -R '^cuda/(chol_complex|complex|chol|chol_batch|chol_insert_batch|chol_delete_batch|lsq_batch_complex|lsq_batch|lsq_batch_cols|lsq_batch_full|lsq_batch_modify|backend_ops|update_chain|nonfinite|lars|omp|nnls|batch_threads)$' 2>&1 | grep --line-buffered -E "Test +#|tests passed|Failed|\*\*\*" 
cd ..
echo "== after cuda ctest $(( $(date +%s) - T0 )) s"
QRU_GPU_CHECK_OPENCL_ONLY=1 QRU_OCL_JOBS=6 QRU_OCL_TESTS='^opencl/(chol_complex|complex|lsq_batch_complex|chol_batch|lsq_batch|lars)$' OUT=/tmp/o bash scripts/gpu-check 2>&1 | grep --line-buffered -E "Test +#|tests passed|Failed|platform|device|\*\*\*" | head -40
echo "== total $(( $(date +%s) - T0 )) s"
ls $OUT
