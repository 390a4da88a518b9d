# After dev7 (2026-11-26): backend_ops' double sweeps case three times
# (one failure in dev7's suite, a rotation 1.2x its tolerance: flaky or
# not?) and memcheck / racecheck / synccheck of the float panel case with
# only the warp-chain kernel instrumented.  Usage: bash dev8.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
cmake -S . -B build-fin -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build build-fin -j16 --target test_backend_ops >$O/build.log 2>&1 || tail -20 $O/build.log
export QRU_TEST_BACKEND=cuda
san() {
  CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=panel_t0 timeout 150 \
    compute-sanitizer --tool $1 --kernel-name kns=qru_panel_qr_chain --error-exitcode 99 \
    build-fin/tests/test_backend_ops >$O/san-$1.log 2>&1
  echo "$1 panel_t0 (chain kernel): exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Checks' $O/san-$1.log | tr '\n' ' ')"
}
san memcheck & san racecheck & san synccheck &
for k in 1 2 3; do
  CK_RUN_CASE=sweeps_t1 QRU_TEST_VERBOSE=1 timeout 100 build-fin/tests/test_backend_ops > $O/sweeps$k.log 2>&1
  echo "sweeps_t1 run $k: exit $? $(grep -E 'Checks|F:' $O/sweeps$k.log | tr '\n' ' ' | cut -c1-300)"
  grep -B2 "F:" $O/sweeps$k.log | head -4
done
wait
