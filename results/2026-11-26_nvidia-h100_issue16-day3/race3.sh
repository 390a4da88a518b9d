# issue 16: racecheck of backend_ops' panel and givens cases with a line a
# case as it starts (QRU_TEST_VERBOSE), to see which kernels and sizes
# keep racecheck past its limit (san1.sh, san2.sh and the run without the
# grid and cluster kernels all ran out of time without a finding).
set -u
O=$1; mkdir -p "$O"
say() { echo "$*"; }
ARGS=(-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF)
source scripts/gpu-deps
cmake -S . -B build-r3 "${ARGS[@]}" >$O/build.log 2>&1 &&
  cmake --build build-r3 -j16 --target test_backend_ops >>$O/build.log 2>&1 || { tail -20 $O/build.log; exit 1; }
run() {
  QRU_TEST_BACKEND=cuda CK_FORK=no QRU_TEST_QUICK=1 QRU_TEST_VERBOSE=1 CK_RUN_CASE=$1 \
    timeout ${2:-330} compute-sanitizer --tool racecheck --error-exitcode 99 \
    build-r3/tests/test_backend_ops >$O/race3-$1.log 2>&1
  echo "racecheck $1: exit $?; $(grep -E 'RACECHECK SUMMARY|Checks' $O/race3-$1.log | tr '\n' ' ')"
  tail -3 $O/race3-$1.log
}
run panel & run givens & wait
