# Device call of issue 16 item 8 (the CUDA trsm op with few right-hand
# sides): build with CUDA, cuda/backend_ops, bench_trsv_gpu (double, float),
# bench_chol_gpu --gp (the GP append at n = 4096), the whole ctest.
# Usage: bash dev1.sh $OUT   (from the repository root)
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
ctest --test-dir $B -R backend_ops --output-on-failure --timeout 300 >"$O/ctest-backend_ops.log" 2>&1
el "backend_ops: exit $?"; grep -E "tests passed|Failed|Passed|%" "$O/ctest-backend_ops.log" | tail -5
QRU_TEST_BACKEND=cuda timeout 120 $B/bench/bench_trsv_gpu -r 21 >"$O/bench_trsv_d.txt" 2>&1; el "bench_trsv d: $?"; cat "$O/bench_trsv_d.txt"
QRU_TEST_BACKEND=cuda timeout 120 $B/bench/bench_trsv_gpu -r 21 -s >"$O/bench_trsv_s.txt" 2>&1; el "bench_trsv s: $?"; cat "$O/bench_trsv_s.txt"
mkdir -p "$O/gp"
QRU_TEST_BACKEND=cuda timeout 120 $B/bench/bench_chol_gpu --gp -r 15 -o "$O/gp" >"$O/bench_chol_gp.log" 2>&1; el "bench_chol_gpu --gp: $?"; cat "$O/bench_chol_gp.log" | tail -12
ctest --test-dir $B --output-on-failure -j8 --timeout 300 >"$O/ctest.log" 2>&1
el "ctest: exit $?"; grep -E "tests passed|tests failed|Failed|Timeout|Not Run" "$O/ctest.log" | head -20
tar -C "$O" -czf "$O/gp.tar.gz" gp && rm -rf "$O/gp"
el done
