# compute-sanitizer on the programs that run the many-block panel (forced:
# test_backend_ops' panel test, test_nonfinite's panel settings)
QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_BUDGET=540 \
  QRU_SAN_TOOLS="memcheck racecheck synccheck" QRU_SAN_TESTS="backend_ops nonfinite" QRU_SAN_JOBS=3 \
  QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-san OUT=$OUT/san timeout 590 bash scripts/gpu-check > $OUT/san.txt 2>&1
tail -40 $OUT/san.txt
rm -rf $OUT/san/build.log
