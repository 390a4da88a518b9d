# Issue 18 / 16, first call of 2026-11-27's seventh session (tree 279f08e):
# the whole CUDA suite (scripts/gpu-check without sanitizers), then
# bench_modify set 0 with the planner of fd9e9a9 (not yet run on a GPU),
# then ncu's duration of every kernel of one modification at k = 1, 8, 64
# (timeline_modify.c) beside its host-timed calls.  Usage: bash dev1.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h100_issue18-timeline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
( QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-fin \
  OUT=$O/gc timeout 400 bash scripts/gpu-check >$O/gpu-check.log 2>&1; echo "gpu-check exit $?" >>$O/gpu-check.log ) &
cmake -S . -B build-tl -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_TESTS=OFF -DQRU_BUILD_BENCH=ON >$O/cmake.log 2>&1
cmake --build build-tl -j8 --target qru bench_modify >$O/build.log 2>&1 || tail -20 $O/build.log
CU=$(dirname $(dirname $(which nvcc)))
gcc -O2 -o /tmp/tlm $D/timeline_modify.c -Iinclude -I$CU/include -Lbuild-tl -lqru -L$CU/lib64 -lcudart -Wl,-rpath,$PWD/build-tl
wait  # the suite first: nothing runs beside the timings
echo "suite done $(date +%T)"
grep -hE "tests passed|tests failed|gpu-check exit" $O/gpu-check.log | head -4
grep -hE "\*\*\*Failed|Timeout|Not Run" $O/gc/*ctest-cuda.log | head -10
grep -hE "Checks" $O/gc/*nonfinite.log | head -2
mkdir -p $O/keep; cp $O/gc/*ctest-cuda.log $O/gc/*nonfinite.log $O/keep/ 2>/dev/null; rm -rf $O/gc
mkdir -p $O/modify
timeout 150 build-tl/bench/bench_modify -p d -r 5 --no-sweeps -o $O/modify >$O/modify.log 2>&1; echo "bench_modify exit $? $(date +%T)"
grep -vhE '^%' $O/modify/*tus_d.txt 2>/dev/null | head -5
for k in 1 8 64; do
  /tmp/tlm $k | tee $O/k$k-host.txt
  timeout 100 ncu --clock-control none --profile-from-start off --metrics gpu__time_duration.sum --csv /tmp/tlm $k >$O/k$k-ncu.csv 2>$O/k$k-ncu.err
  python3 results/2026-11-27_nvidia-h100_s1-timeline/summarize.py $O/k$k-ncu.csv | tee $O/k$k-kernels.txt | head -22
done
echo "end $(date +%T)"
rm -f $O/*.csv
