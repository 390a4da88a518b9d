# The checks of the final tree (issue 16's "done when"): the whole CUDA
# suite and the non-finite suite (scripts/gpu-check), the randomised
# chains of 1000 updates on the device (every form, the dissertation's
# algorithm, the fast one and the Householder tiles forced, float and
# double), then compute-sanitizer memcheck and synccheck of the tiles'
# cases of update_rows, update_cols and update_chain (QRU_SAN_CASES).
# Usage: bash dev3.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log -1 --format='%h %s' 2>/dev/null | cut -c1-80
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-f OUT=$O/gc timeout 300 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed|nonfinite" $O/gc/*summary.txt 2>/dev/null | head -4
grep -hE "\*\*\*Failed|Timeout|Total Test" $O/gc/*ctest-cuda.log | head
cp $O/gc/*ctest-cuda.log $O/ 2>/dev/null; cp $O/gc/*nonfinite.log $O/ 2>/dev/null; rm -rf $O/gc
t0=$(date +%s)
( cd build-f && QRU_TEST_CHAIN_UPDATES=1000 CK_TIMEOUT_MULTIPLIER=4 QRU_TEST_BACKEND=cuda timeout 170 ./tests/test_update_chain ) > $O/chain1000-cuda.txt 2>&1
echo "chain1000 exit $? $(( $(date +%s) - t0 )) s"; grep -E "worst|Checks" $O/chain1000-cuda.txt | sed 's/ add_cols.*checks,/:/'
QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_BUDGET=150 QRU_SAN_TIMEOUT=150 \
  QRU_SAN_TOOLS="memcheck synccheck" QRU_SAN_TESTS="update_rows update_cols update_chain" QRU_SAN_JOBS=3 \
  QRU_SAN_CASES="tiles tiles_q tiles_thin tiles_qless" \
  QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-f OUT=$O/san timeout 200 bash scripts/gpu-check > $O/san.txt 2>&1
echo "san exit $?"; grep -E "^sanitizer|NOT RUN|ERROR SUMMARY|findings" $O/san.txt | tail -20
rm -f $O/san/build.log; ls $O/san
cd $O && tar czf ../dev3.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev3.tgz $O/
