# Second call (2026-11-26): the narrow-column download packed by a kernel
# first.  chol_small at n = 32 and 256 again, then the CUDA build with tests
# and the whole CUDA suite (ctest -L cuda).
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name --format=csv,noheader
D=results/2026-11-26_nvidia-h200_chol-small
cmake -S . -B build-cs -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF \
  -DQRU_BUILD_TESTS=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1 || tail -20 $O/cmake.log
cmake --build build-cs -j16 --target qru >$O/build.log 2>&1 || tail -30 $O/build.log
gcc -O2 $D/chol_small.c -Iinclude -Lbuild-cs -lqru -Wl,-rpath,$PWD/build-cs -o build-cs/chol_small
for n in 32 256; do build-cs/chol_small cuda $n; done 2>&1 | tee $O/chol_small.txt
QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF \
  BUILD=build-gc OUT=$O/gc timeout 480 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -E "tests passed|tests failed|Failed|\*\*\*" $O/gc/*ctest-cuda.log | tail -15
tar czf $O/gc.tgz -C $O gc && rm -rf $O/gc
