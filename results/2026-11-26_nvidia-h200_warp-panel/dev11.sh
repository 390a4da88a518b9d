# The helpers keep only the column they hand over next current and bring
# their other columns forward while the chain has not yet published the
# next reflector (2026-11-26, after dev9's 775 waiting cycles a step):
# panel tests (both precisions, every kernel choice), bench_panel, S1/S2
# against QRU_PANEL_KERNEL=reg.  Usage: bash dev11.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
# a variant beside it: the lagged helpers with 11 helper warps (fewer
# columns each), built in parallel
rm -rf /tmp/exp-h11; mkdir -p /tmp/exp-h11; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-h11
( cmake -S /tmp/exp-h11 -B /tmp/bld-h11 -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON "-DCMAKE_CUDA_FLAGS=-DPC_HELPERS=11" >$O/cmake-h11.log 2>&1
  cmake --build /tmp/bld-h11 -j8 --target test_backend_ops bench_panel >$O/build-h11.log 2>&1 || tail -20 $O/build-h11.log ) &
cmake -S . -B build-lz -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON >$O/cmake.log 2>&1
cmake --build build-lz -j8 --target test_backend_ops bench_panel bench_add_rows bench_remove_cols >$O/build.log 2>&1 || tail -20 $O/build.log
for c in panel_t0 panel_t1; do
  echo "$c: $(CK_RUN_CASE=$c timeout 40 build-lz/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
timeout 40 build-lz/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)" | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name b pt <<<"$s"
  for pk in reg auto; do
    mkdir -p "$O/runs/$pk/$name"
    QRU_PANEL_KERNEL=$pk timeout 40 build-lz/bench/$b -P "$pt" -p d -r 5 -o "$O/runs/$pk/$name" >"$O/runs/$pk/$name.log" 2>&1
    echo "$pk $name exit $?: $(grep -vE '^%' "$O/runs/$pk/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs
wait
echo "== h11 (lagged, 11 helpers)"
for c in panel_t0 panel_t1; do
  echo "h11 $c: $(CK_RUN_CASE=$c timeout 40 /tmp/bld-h11/tests/test_backend_ops 2>&1 | tail -1)"
done | tee -a $O/panel_tests.txt
timeout 40 /tmp/bld-h11/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)" | sed 's/^/h11 /' | tee -a $O/variants.txt
# the chain step's cycles with the lagged helpers (dev9's clock64 marks;
# the chain loop is unchanged, so the same patch applies)
rm -rf /tmp/exp-clk; mkdir -p /tmp/exp-clk; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-clk
sed -n '/^python3 - \/tmp\/exp-clk/,/^PY$/p' results/2026-11-26_nvidia-h200_warp-panel/dev9.sh | sed '1d;$d' > /tmp/clk-patch.py
python3 /tmp/clk-patch.py /tmp/exp-clk/cuda/cuda_panel_chain.cuh
cmake -S /tmp/exp-clk -B /tmp/bld-clk -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF >$O/cmake-clk.log 2>&1
cmake --build /tmp/bld-clk -j16 --target bench_panel >$O/build-clk.log 2>&1 || tail -20 $O/build-clk.log
timeout 60 /tmp/bld-clk/bench/bench_panel 2>&1 | grep -E "chain cycles|^  1 +264 +64" | tee $O/clock.txt
rm -f $O/*.log
