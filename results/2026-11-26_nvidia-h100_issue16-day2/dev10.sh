# long randomised chains (1000 updates, every form, both algorithms) on the
# device: plain, then under memcheck, synccheck and racecheck
export QRU_TEST_CHAIN_UPDATES=1000 CK_TIMEOUT_MULTIPLIER=4
QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_SKIP_SAN=1 \
  QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-lc OUT=$OUT/lc0 bash scripts/gpu-check > /dev/null 2>&1
( cd build-lc && QRU_TEST_BACKEND=cuda timeout 100 ./tests/test_update_chain ) > $OUT/chain1000-cuda.txt 2>&1
tail -14 $OUT/chain1000-cuda.txt
QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_BUDGET=370 \
  QRU_SAN_TOOLS="memcheck synccheck racecheck" QRU_SAN_TESTS="update_chain" QRU_SAN_JOBS=3 \
  QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-lc OUT=$OUT/san timeout 390 bash scripts/gpu-check > $OUT/san.txt 2>&1
grep -E "^sanitizer|==" $OUT/san.txt | tail -12
rm -rf $OUT/lc0 $OUT/san/build.log
