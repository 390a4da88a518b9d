# Side by side (2026-11-27): the two update benchmarks whose panels the
# warp-chain kernel runs (bench_add_rows, bench_remove_cols: the
# dissertation's sweeps of k, p and n around S1 and S2, double, data on
# the device), the default (QRU_PANEL_KERNEL=auto: the chain kernel) and
# the register kernel (QRU_PANEL_KERNEL=reg, the default before
# 2026-11-26 evening), one after the other in one build, cuSOLVER's
# refactorisation in each run.  Usage: bash dev21.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
B="bench_add_rows bench_remove_cols"
cmake -S . -B build-pl -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_TESTS=OFF -DQRU_BUILD_BENCH=ON >$O/cmake.log 2>&1
cmake --build build-pl -j16 --target $B >$O/build.log 2>&1 || tail -20 $O/build.log
for pk in auto reg; do
  mkdir -p $O/bench-$pk
  for b in $B; do
    t0=$(date +%s)
    QRU_TEST_BACKEND=cuda QRU_PANEL_KERNEL=$pk timeout 115 build-pl/bench/$b -p d -t 40 -o $O/bench-$pk >$O/bench-$pk/$b.log 2>&1
    echo "$pk $b exit $? $(( $(date +%s) - t0 )) s"
  done
done
rm -f $O/*.log
(cd $O && tar czf bench.tgz bench-auto bench-reg && rm -rf bench-auto bench-reg)
