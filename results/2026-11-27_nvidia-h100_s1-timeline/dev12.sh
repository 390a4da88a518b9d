# Where S1 and S2 go (2026-11-27): ncu's duration of every kernel of one
# R-only update (timeline.c), the host-timed update beside it; then the
# whole CUDA suite (scripts/gpu-check, no sanitizers).  Usage: bash dev12.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h100_s1-timeline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
( QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-fin \
  OUT=$O/gc timeout 420 bash scripts/gpu-check >$O/gpu-check.log 2>&1; echo "gpu-check exit $?" >>$O/gpu-check.log ) &
cmake -S . -B build-tl -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_TESTS=OFF >$O/cmake.log 2>&1
cmake --build build-tl -j8 --target qru >$O/build.log 2>&1 || tail -20 $O/build.log
CU=$(dirname $(dirname $(which nvcc)))
gcc -O2 -o /tmp/timeline $D/timeline.c -Iinclude -I$CU/include -Lbuild-tl -lqru -L$CU/lib64 -lcudart -Wl,-rpath,$PWD/build-tl
wait  # the suite first, so that nothing runs beside the profile
grep -hE "tests passed|tests failed|gpu-check exit" $O/gpu-check.log | head -4
grep -E "Failed|\*\*\*" $O/gc/*ctest-cuda.log | head -10
for s in s1 s2; do
  /tmp/timeline $s | tee $O/$s-host.txt
  timeout 200 ncu --clock-control none --profile-from-start off --metrics gpu__time_duration.sum --csv /tmp/timeline $s >$O/$s-ncu.csv 2>$O/$s-ncu.err
  python3 $D/summarize.py $O/$s-ncu.csv | tee $O/$s-kernels.txt | head -25
done
rm -f $O/*.csv $O/*.err; mkdir -p $O/keep; cp $O/gc/*ctest-cuda.log $O/keep/ 2>/dev/null; rm -rf $O/gc $O/*.log
