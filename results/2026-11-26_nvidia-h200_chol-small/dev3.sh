# Third call (2026-11-26): chol_steps, the steps of the small Cholesky
# update one at a time on the GPU (static qru_internal of build-cs).
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name --format=csv,noheader
D=results/2026-11-26_nvidia-h200_chol-small
cmake -S . -B build-cs -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF \
  -DQRU_BUILD_TESTS=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1 || tail -20 $O/cmake.log
cmake --build build-cs -j16 --target qru_internal >$O/build.log 2>&1 || tail -30 $O/build.log
g++ -O2 -x c $D/chol_steps.c -Iinclude -Isrc -c -o build-cs/chol_steps.o
g++ build-cs/chol_steps.o build-cs/libqru_internal.a -L/usr/local/cuda/lib64 -lcusolver -lcublas -lcudart \
  -llapacke -llapack -lopenblas -lm -lpthread -o build-cs/chol_steps 2>&1 | tail -5
build-cs/chol_steps 2>&1 | tee $O/chol_steps.txt
