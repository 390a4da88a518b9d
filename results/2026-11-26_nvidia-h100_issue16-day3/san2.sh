# issue 16: san1.sh again after its first run (that run: the chains were not
# built in time, a race of the two parallel builds, now staggered; racecheck
# of the panels and the Givens kernels ran past 500 s: QRU_TEST_QUICK now
# keeps the panels up to 1000 x 64, one tall one and the widest on-chip,
# and the accumulation is a case of its own).  Racecheck of the three
# cases that had not finished, and memcheck of the chains, in parallel.
set -u
O=$1; mkdir -p "$O"
export QRU_TEST_CHAIN_UPDATES=1000 CK_TIMEOUT_MULTIPLIER=4 CK_VERBOSITY=verbose
export QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-san
QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_SKIP_SAN=1 \
  OUT=$O/build bash scripts/gpu-check >$O/build.txt 2>&1
export QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 \
  QRU_GPU_CHECK_BUDGET=${2:-540} QRU_SAN_TIMEOUT=${2:-540}
QRU_SAN_TOOLS=memcheck QRU_SAN_TESTS=update_chain QRU_SAN_JOBS=6 \
  OUT=$O/mem bash scripts/gpu-check >$O/mem.txt 2>&1 &
sleep 20
# racecheck: only the cases not yet clean (basic, householder, chol were)
QRU_SAN_CASES="panel givens accum" QRU_SAN_TOOLS=racecheck QRU_SAN_TESTS=backend_ops QRU_SAN_JOBS=3 \
  OUT=$O/race bash scripts/gpu-check >$O/race.txt 2>&1 &
wait
grep -hE "^sanitizer|^  " $O/mem.txt $O/race.txt
rm -rf $O/build/build.log $O/mem/build.log $O/race/build.log
