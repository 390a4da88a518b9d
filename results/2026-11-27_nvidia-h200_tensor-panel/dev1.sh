# Z = Y'Y and W = -Y T of the warp-chain panel on the FP64 tensor cores
# (mma m8n8k4; the working tree, "tp") against HEAD 8f63785 ("base"),
# 2026-11-27: panel tests, bench_panel, S1/S2 (double, float), clock64
# phases of both (clk-patch.py).  Usage: bash dev1.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tensor-panel
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
tree() { # tree NAME CHAIN_FILE CLK
  rm -rf /tmp/src-$1; mkdir -p /tmp/src-$1
  tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$1
  cp $2 /tmp/src-$1/cuda/cuda_panel_chain.cuh
  [ "$3" = clk ] && python3 $4 /tmp/src-$1/cuda/cuda_panel_chain.cuh
  cmake -S /tmp/src-$1 -B /tmp/bld-$1 $C >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j4 --target $5 >$O/build-$1.log 2>&1 || tail -20 $O/build-$1.log
}
tree base $D/base-chain.cuh.tmp no x "bench_panel bench_add_rows bench_remove_cols" &
tree baseclk $D/base-chain.cuh.tmp clk results/2026-11-27_nvidia-h100_s1-timeline/clk-patch.py bench_panel &
tree tpclk cuda/cuda_panel_chain.cuh clk $D/clk-patch.py bench_panel &
cmake -S . -B build-tp $C >$O/cmake-tp.log 2>&1
cmake --build build-tp -j6 >$O/build-tp.log 2>&1 || tail -30 $O/build-tp.log
wait
for c in panel_t0 panel_t1; do
  echo "tp $c: $(CK_RUN_CASE=$c timeout 90 build-tp/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
for b in /tmp/bld-base build-tp; do
  echo "== $b"; timeout 60 $b/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232|128) +(64|32)"
done | tee $O/variants.txt
for b in baseclk tpclk; do
  echo "== $b"; timeout 60 /tmp/bld-$b/bench/bench_panel 2>&1 | grep -E "cycles" | sort -u | head -6
done | tee $O/phases.txt
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
