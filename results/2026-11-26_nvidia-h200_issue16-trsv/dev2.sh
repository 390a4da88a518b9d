# Second device call of issue 16 item 8: the kernel with the inverse by
# recursive doubling and the flags of 8 blocks polled at once.  Build,
# cuda/backend_ops, bench_trsv_gpu (double, float), bench_chol_gpu --gp
# with the kernel and, same machine, with cuBLAS (a second build with
# -DQRU_CU_TRSV_OFF), an nsys kernel list of the append, the whole ctest.
# Usage: bash dev2.sh $OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"; T0=$(date +%s)
el() { echo "[$(($(date +%s) - T0)) s] $*" | tee -a "$O/summary.txt"; }
say() { el "$*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee -a "$O/summary.txt"
date -u | tee -a "$O/summary.txt"
ARGS=(-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON)
source scripts/gpu-deps
B=build-trsv
cmake -S . -B $B "${ARGS[@]}" >"$O/build.log" 2>&1 || { el "configure failed"; tail -30 "$O/build.log"; exit 1; }
cmake --build $B -j16 >>"$O/build.log" 2>&1 || { el "build failed"; grep -E "error" "$O/build.log" | head -30; exit 1; }
el "built"
(cmake -S . -B build-base "${ARGS[@]}" -DQRU_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DQRU_CU_TRSV_OFF >"$O/build-base.log" 2>&1 &&
 cmake --build build-base -j8 --target bench_chol_gpu bench_trsv_gpu >>"$O/build-base.log" 2>&1; echo "base build $?" >>"$O/build-base.log") &
BP=$!
ctest --test-dir $B -R backend_ops --output-on-failure --timeout 300 >"$O/ctest-backend_ops.log" 2>&1
el "backend_ops: exit $?"; grep -E "tests passed|Failed|Passed|%" "$O/ctest-backend_ops.log" | tail -5
wait $BP; tail -1 "$O/build-base.log"
R="$O/bench.txt"
for rep in 1 2; do
QRU_TEST_BACKEND=cuda timeout 120 $B/bench/bench_trsv_gpu -r 21 >>"$R" 2>&1; el "bench_trsv d: $?"
done
QRU_TEST_BACKEND=cuda timeout 120 $B/bench/bench_trsv_gpu -r 21 -s >>"$R" 2>&1; el "bench_trsv s: $?"
cat "$R"
mkdir -p "$O/gp" "$O/gpbase"
for rep in 1 2; do
QRU_TEST_BACKEND=cuda timeout 120 $B/bench/bench_chol_gpu --gp -r 21 -o "$O/gp" >>"$O/bench_chol_gp.log" 2>&1; el "gp (kernel): $?"
QRU_TEST_BACKEND=cuda timeout 120 build-base/bench/bench_chol_gpu --gp -r 21 -o "$O/gpbase" >>"$O/bench_chol_gp_base.log" 2>&1; el "gp (cuBLAS): $?"
done
grep -A2 "t_insert_host" "$O/bench_chol_gp.log" "$O/bench_chol_gp_base.log"
NSYS=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
if [ -n "$NSYS" ]; then
  QRU_TEST_BACKEND=cuda timeout 120 "$NSYS" profile -o /tmp/gp_prof --force-overwrite true $B/bench/bench_chol_gpu --gp -r 3 -o /tmp >/dev/null 2>&1
  timeout 60 "$NSYS" stats -r cuda_gpu_kern_sum,cuda_api_sum /tmp/gp_prof.nsys-rep >"$O/nsys_gp.txt" 2>&1; el "nsys: $?"
  head -40 "$O/nsys_gp.txt"
else el "no nsys"; fi
ctest --test-dir $B --output-on-failure -j8 --timeout 300 >"$O/ctest.log" 2>&1
el "ctest: exit $?"; grep -E "tests passed|tests failed|Failed|Timeout|Not Run" "$O/ctest.log" | head -20
tar -C "$O" -czf "$O/gp.tar.gz" gp gpbase build-base.log && rm -rf "$O/gp" "$O/gpbase"
el done
