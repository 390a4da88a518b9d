# Where pc_w<double> spends its time (clk-patch.py + clk-w.py on the
# working tree), then the whole CUDA suite on the working tree (ctest
# cuda/*, no sanitizers), 2026-11-27.  Usage: bash dev2.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tensor-panel
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
rm -rf /tmp/src-w; mkdir -p /tmp/src-w
tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-w
python3 $D/clk-patch.py /tmp/src-w/cuda/cuda_panel_chain.cuh && python3 $D/clk-w.py /tmp/src-w/cuda/cuda_panel_chain.cuh
( cmake -S /tmp/src-w -B /tmp/bld-w $C >$O/cmake-w.log 2>&1
  cmake --build /tmp/bld-w -j4 --target bench_panel >$O/build-w.log 2>&1 || tail -20 $O/build-w.log ) &
cmake -S . -B build-tp $C >$O/cmake-tp.log 2>&1
cmake --build build-tp -j12 >$O/build-tp.log 2>&1 || tail -30 $O/build-tp.log
wait
timeout 60 /tmp/bld-w/bench/bench_panel 2>&1 | grep -E "cycles|pc_w" | sort -u | head -12 | tee $O/phases-w.txt
(cd build-tp && timeout 400 ctest -R '^cuda/' -j4 --timeout 300 >$O/ctest-tp.log 2>&1)
grep -E "tests passed|tests failed|Failed|Timeout" $O/ctest-tp.log | head -12
rm -f $O/cmake-*.log $O/build-*.log
