# The lag-2 chain (branch chain-lag2, the working tree: "lag2") against
# main db01862 ("base", base10.tar.gz, made by git archive), 2026-11-27: the panel tests, bench_panel,
# clock64 phases (clk-patch7.py / clk-lag2.py + clk-w3.py), S1/S2 (double,
# float), then memcheck and synccheck of the panel cases on lag2.
# Usage: bash dev10.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_chain-lag2
T=results/2026-11-27_nvidia-h200_tensor-panel
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
tree base $D/base10.tar.gz, made by git archive "" "bench_panel bench_add_rows bench_remove_cols" &
tree baseclk $D/base10.tar.gz, made by git archive "$T/clk-patch7.py $T/clk-w3.py" bench_panel &
tree lag2clk . "$D/clk-lag2.py $T/clk-w3.py" bench_panel &
tree lag2 . "" "bench_panel bench_add_rows bench_remove_cols test_backend_ops"
wait
for c in panel_t0 panel_t1 panel_tp; do
  echo "lag2 $c: $(CK_RUN_CASE=$c timeout 120 /tmp/bld-lag2/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
for b in base lag2; do
  echo "== $b"; timeout 60 /tmp/bld-$b/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232|128) +(64|32)"
done | tee $O/variants.txt
for b in baseclk lag2clk; do
  echo "== $b"; timeout 60 /tmp/bld-$b/bench/bench_panel 2>&1 | grep -E "cycles|pc_w" | sort -u | head -8
done | tee $O/phases.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base:d lag2:d base:s lag2:s; do
    IFS=: read -r vn pr <<<"$v"
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 60 /tmp/bld-$vn/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
for tc in memcheck:panel_t0 synccheck:panel_t0 memcheck:panel_tp; do
    IFS=: read -r tool c <<<"$tc"
    CK_RUN_CASE=$c CK_FORK=no timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 /tmp/bld-lag2/tests/test_backend_ops >$O/san.log 2>&1
    echo "$tool $c exit $?: $(grep -E 'ERROR SUMMARY|Checks' $O/san.log | tail -2 | tr '\n' ' ')"
done | tee $O/sanitize.txt
rm -f $O/san.log
rm -rf $O/runs $O/cmake-*.log $O/build-*.log
