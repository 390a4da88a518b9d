# Z by 16 x 16 blocks (half the fragment loads) and Z's leading dimension
# 68 (no bank conflicts in W's fragments of Z) (the working tree, "v1") against
# 26e0782 ("base", base8.tar.gz): panel tests, bench_panel, clock64 phases
# (clk-patch7.py + clk-w3.py), S1/S2 (double, float), then ctest cuda/* of v1,
# 2026-11-27.  Usage: bash dev8.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_tensor-panel
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
tree() { # tree NAME SOURCE(tar.gz or .) PATCHES TARGETS
  rm -rf /tmp/src-$1; mkdir -p /tmp/src-$1
  if [ "$2" = . ]; then
    tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$1
  else tar -xzf $2 -C /tmp/src-$1; fi
  for p in $3; do python3 $p /tmp/src-$1/cuda/cuda_panel_chain.cuh; done
  cmake -S /tmp/src-$1 -B /tmp/bld-$1 $C >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j4 --target $4 >$O/build-$1.log 2>&1 || tail -20 $O/build-$1.log
}
tree base $D/base8.tar.gz "" "bench_panel bench_add_rows bench_remove_cols" &
tree baseclk $D/base8.tar.gz "$D/clk-patch7.py $D/clk-w3.py" bench_panel &
tree v1clk . "$D/clk-patch7.py $D/clk-w3.py" bench_panel &
tree v1 . "" "bench_panel bench_add_rows bench_remove_cols test_backend_ops"
wait
for c in panel_t0 panel_t1 panel_tp; do
  echo "v1 $c: $(CK_RUN_CASE=$c timeout 120 /tmp/bld-v1/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
for b in base v1; do
  echo "== $b"; timeout 60 /tmp/bld-$b/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232|128) +(64|32)"
done | tee $O/variants.txt
for b in baseclk v1clk; do
  echo "== $b"; timeout 60 /tmp/bld-$b/bench/bench_panel 2>&1 | grep -E "cycles|pc_w" | sort -u | head -8
done | tee $O/phases.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base:d v1:d base:s v1:s; do
    IFS=: read -r vn pr <<<"$v"
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 60 /tmp/bld-$vn/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs $O/cmake-*.log $O/build-*.log
(cd /tmp/bld-v1 && cmake --build . -j16 >/dev/null 2>&1; timeout 300 ctest -R '^cuda/' -j4 --timeout 280 >$O/ctest-v1.log 2>&1)
grep -E "tests passed|tests failed|Failed|Timeout" $O/ctest-v1.log | head -12
