# The final tree of the session (its HEAD): the whole CTest suite and the
# non-finite suite through scripts/gpu-check (no sanitizers), 2026-11-27.
# Usage: bash dev9.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-fin \
  OUT=$O/gc timeout 330 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed|nonfinite:" $O/gc/*summary.txt $O/gc/*ctest-cuda.log 2>/dev/null | head -6
grep -hE "\*\*\*Failed|Timeout" $O/gc/*ctest-cuda.log | head
cp $O/gc/*ctest-cuda.log $O/ctest-cuda.log 2>/dev/null; rm -rf $O/gc $O/gpu-check.log
