# issues 16 and 18 on the device, after the merge of the rank-k
# modification: the whole CUDA suite (update_modify among the tests) and
# the non-finite suite, then bench_modify (n = 8000, m = 3000, Q kept,
# k = 1, 8, 64, cuSOLVER in the same run) and bench_chol_gpu (the
# Cholesky ratio to potrf after the workspace-query change).
set -u
O=$1; mkdir -p "$O"
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=ON BUILD=build-x \
  OUT=$O/check bash scripts/gpu-check >$O/check.txt 2>&1
grep -E "tests passed|tests failed|Failed|Timeout|nonfinite:|ctest exit|WARNING|FATAL" $O/check.txt
grep -E "cuda/.*(Failed|Timeout|Not Run)" $O/check/*ctest-cuda.log | head
grep -E "update_modify" $O/check/*ctest-cuda.log | head -3
export QRU_TEST_BACKEND=cuda
mkdir -p $O/modify $O/chol
timeout 240 build-x/bench/bench_modify -p sd -r 5 --no-sweeps -o $O/modify >$O/modify/bench_modify.log 2>&1
echo "bench_modify exit $?"; grep -vE "^#" $O/modify/*tus*.txt 2>/dev/null | head -20
timeout 150 build-x/bench/bench_chol_gpu -r 7 >$O/chol/bench_chol_gpu.log 2>&1
echo "bench_chol_gpu exit $?"; tail -14 $O/chol/bench_chol_gpu.log
rm -f $O/check/build.log
cd $O && tar czf check.tar.gz check && rm -rf check
