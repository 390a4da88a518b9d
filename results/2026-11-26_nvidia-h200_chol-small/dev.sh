# The small Cholesky update on the GPU (2026-11-26): build libqru with CUDA
# (library only), then chol_small at n = 32 and 256 (host time a call,
# backend calls and host waits a call from the context's statistics).
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name --format=csv,noheader
cmake -S . -B build-cs -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF \
  -DQRU_BUILD_TESTS=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1 || tail -20 $O/cmake.log
cmake --build build-cs -j16 --target qru >$O/build.log 2>&1 || tail -30 $O/build.log
D=results/2026-11-26_nvidia-h200_chol-small
gcc -O2 $D/chol_small.c -Iinclude -Lbuild-cs -lqru -Wl,-rpath,$PWD/build-cs -o build-cs/chol_small
for n in 32 256; do build-cs/chol_small cuda $n; done 2>&1 | tee $O/chol_small.txt
