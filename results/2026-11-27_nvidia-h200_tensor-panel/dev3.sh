# The tensor-core W with its loads first (in-block part), the column-block
# loop unrolled, the output rows unrolled (the working tree, "tp") against
# HEAD 8f63785 ("base"): panel tests, bench_panel, clock64 phases and
# pc_w's parts (clk-patch.py + clk-w3.py), S1/S2 (double, float),
# 2026-11-27.  Usage: bash dev3.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tensor-panel
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
tree() { # tree NAME CHAIN_FILE PATCHES TARGETS
  rm -rf /tmp/src-$1; mkdir -p /tmp/src-$1
  tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$1
  cp $2 /tmp/src-$1/cuda/cuda_panel_chain.cuh
  for p in $3; do python3 $p /tmp/src-$1/cuda/cuda_panel_chain.cuh; done
  cmake -S /tmp/src-$1 -B /tmp/bld-$1 $C >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j5 --target $4 >$O/build-$1.log 2>&1 || tail -20 $O/build-$1.log
}
tree base $D/base-chain.cuh.tmp "" "bench_panel bench_add_rows bench_remove_cols" &
tree w cuda/cuda_panel_chain.cuh "$D/clk-patch.py $D/clk-w3.py" bench_panel &
cmake -S . -B build-tp $C >$O/cmake-tp.log 2>&1
cmake --build build-tp -j6 >$O/build-tp.log 2>&1 || tail -30 $O/build-tp.log
wait
for c in panel_t0 panel_t1; do
  echo "tp $c: $(CK_RUN_CASE=$c timeout 90 build-tp/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
for b in /tmp/bld-base build-tp; do
  echo "== $b"; timeout 60 $b/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232|128) +(64|32)"
done | tee $O/variants.txt
timeout 60 /tmp/bld-w/bench/bench_panel 2>&1 | grep -E "cycles|pc_w" | sort -u | head -12 | tee $O/phases-w.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base:/tmp/bld-base:d tp:build-tp:d base:/tmp/bld-base:s tp:build-tp:s; do
    IFS=: read -r vn b pr <<<"$v"
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 60 $b/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs $O/cmake-*.log $O/build-*.log
