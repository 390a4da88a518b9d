# Fourth call (2026-11-26): the context's own memory pool for scratch
# memory.  chol_small (n = 32, 256) and chol_steps again; the whole CUDA
# suite (scripts/gpu-check, ctest only); the Python package's GPU check
# with the call-overhead benchmark (scripts/python-gpu-check).
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name --format=csv,noheader
D=results/2026-11-26_nvidia-h200_chol-small
cmake -S . -B build-cs -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF \
  -DQRU_BUILD_TESTS=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1 || tail -20 $O/cmake.log
cmake --build build-cs -j16 --target qru qru_internal >$O/build.log 2>&1 || tail -30 $O/build.log
gcc -O2 $D/chol_small.c -Iinclude -Lbuild-cs -lqru -Wl,-rpath,$PWD/build-cs -o build-cs/chol_small
g++ -O2 -x c $D/chol_steps.c -Iinclude -Isrc -c -o build-cs/chol_steps.o
g++ build-cs/chol_steps.o build-cs/libqru_internal.a -L/usr/local/cuda/lib64 -lcusolver -lcublas -lcudart \
  -llapacke -llapack -lopenblas -lm -lpthread -o build-cs/chol_steps 2>&1 | tail -5
for n in 32 256; do build-cs/chol_small cuda $n; done 2>&1 | tee $O/chol_small.txt
build-cs/chol_steps 2>&1 | tee $O/chol_steps.txt
QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF \
  BUILD=build-gc OUT=$O/gc timeout 300 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -E "tests passed|tests failed|Failed" $O/gc/*ctest-cuda.log | tail -8
tar czf $O/gc.tgz -C $O gc && rm -rf $O/gc
mkdir -p /tmp/pydeps
for w in .whl/pytest-*.whl .whl/pluggy-*.whl .whl/iniconfig-*.whl .whl/packaging-*.whl .whl/pygments-*.whl; do
  python3 -m zipfile -e "$w" /tmp/pydeps; done
PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/pydeps NANOBIND=$PWD/.whl/nanobind-3.1.0-py3-none-any.whl \
  JOBS=16 timeout 300 bash scripts/python-gpu-check >$O/python-gpu-check.log 2>&1
echo "python-gpu-check exit $?"
grep -E "passed|failed|us/call" $O/python-gpu-check.log | tail -6
