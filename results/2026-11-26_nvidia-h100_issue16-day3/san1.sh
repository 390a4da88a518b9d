# issue 16: compute-sanitizer on the device, the runs that had run past
# their limits: memcheck of the 1000-update chains (one run per algorithm
# x form) and racecheck of the backend ops (one run per kind of op), in
# parallel after one build.  Usage (device): bash .../san1.sh OUTDIR
set -u
O=$1; mkdir -p "$O"
export QRU_TEST_CHAIN_UPDATES=1000 CK_TIMEOUT_MULTIPLIER=4
export QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-san
QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_SKIP_SAN=1 \
  OUT=$O/build bash scripts/gpu-check >/dev/null 2>&1
export QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 \
  QRU_GPU_CHECK_BUDGET=${2:-540} QRU_SAN_TIMEOUT=${2:-540}
QRU_SAN_TOOLS=memcheck QRU_SAN_TESTS=update_chain QRU_SAN_JOBS=6 \
  OUT=$O/mem bash scripts/gpu-check >$O/mem.txt 2>&1 &
sleep 20 # (two gpu-checks building the same tree at once relink programs)
QRU_SAN_TOOLS=racecheck QRU_SAN_TESTS=backend_ops QRU_SAN_JOBS=5 \
  OUT=$O/race bash scripts/gpu-check >$O/race.txt 2>&1 &
wait
grep -hE "^sanitizer|^  " $O/mem.txt $O/race.txt
rm -rf $O/build $O/mem/build.log $O/race/build.log
