# The final tree of the warp-chain panel (2026-11-26): the whole CUDA
# suite and the non-finite suite (scripts/gpu-check, no sanitizer sweep),
# then memcheck, racecheck and synccheck of backend_ops' float panel case
# (QRU_TEST_QUICK) with only the warp-chain kernel instrumented.
# Usage: bash dev7.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-fin \
  OUT=$O/gc timeout 330 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed|nonfinite" $O/gc/*summary.txt $O/gc/*ctest-cuda.log 2>/dev/null | head -6
san() {
  QRU_TEST_BACKEND=cuda CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=panel_t0 timeout 140 \
    compute-sanitizer --tool $1 --kernel-name regex:qru_panel_qr_chain --error-exitcode 99 \
    build-fin/tests/test_backend_ops >$O/san-$1.log 2>&1
  echo "$1 panel_t0 (chain kernel): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Checks' $O/san-$1.log | tr '\n' ' ')"
}
san memcheck & san racecheck & san synccheck & wait
cd $O && tar czf gc.tgz gc && rm -rf gc
