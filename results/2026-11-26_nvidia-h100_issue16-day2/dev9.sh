R=results/2026-11-26_nvidia-h100_issue16-day2
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-t OUT=$OUT/check bash scripts/gpu-check > $OUT/check.txt 2>&1
grep -E "tests passed|tests failed|\*\*\*Failed|Timeout" $OUT/check/*ctest-cuda.log | head -20
OUT=$OUT/compare bash scripts/gpu-compare $R/cmds-reg > /dev/null 2>&1
grep -E "^----|update .* s, refactor|^  1   264|^  1   232|^  1   545|^  1  1064" $OUT/compare/compare.log
cd $OUT && tar czf compare.tgz compare/compare.log compare/new compare/base && rm -rf compare check/build.log
