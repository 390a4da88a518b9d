# The final tree of the seventh session: the whole CUDA suite and the
# non-finite suite (scripts/gpu-check without sanitizers).
# Usage: bash dev10.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=/tmp/bf OUT=$O/gc timeout 560 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $? $(date +%T)"
grep -hE "tests passed|tests failed" $O/gc/*ctest-cuda.log | head -3
grep -hE "\*\*\*Failed|Timeout|Not Run" $O/gc/*ctest-cuda.log | head
grep -hE "Checks" $O/gc/*nonfinite.log | head -2
cp $O/gc/*ctest-cuda.log $O/gc/*nonfinite.log $O/ 2>/dev/null; rm -rf $O/gc
cd $O && tar czf ../dev10.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev10.tgz $O/
