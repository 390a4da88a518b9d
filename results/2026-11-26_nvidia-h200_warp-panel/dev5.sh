# The warp-chain panel with one batched reduction a column step (the new
# sum of squares from the same pass as the dot) (2026-11-26): panel tests
# and bench_panel for 7, 11 and 15 helper warps, and timing-only variants
# of 7 (helpers without the rest of their columns / without the z's);
# S1/S2 against QRU_PANEL_KERNEL=reg.  Usage: bash dev5.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
mk() { # name, CUDA flags, sed expression on cuda/cuda_panel_chain.cuh (or ""), targets
  rm -rf /tmp/exp-$1; mkdir -p /tmp/exp-$1; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-$1
  [ -n "$3" ] && sed -i "$3" /tmp/exp-$1/cuda/cuda_panel_chain.cuh
  cmake -S /tmp/exp-$1 -B /tmp/bld-$1 -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON "-DCMAKE_CUDA_FLAGS=$2" >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j3 --target $4 >$O/build-$1.log 2>&1 || echo "BUILD FAILED $1"
}
mk h7 "" "" "test_backend_ops test_nonfinite bench_panel bench_add_rows bench_remove_cols" &
mk h11 "-DPC_HELPERS=11" "" "test_backend_ops bench_panel" &
mk h15 "-DPC_HELPERS=15" "" "test_backend_ops bench_panel" &
mk norest "" 's|if (t != (T)0) { /\* the rest \*/|if (0) {|' bench_panel &
mk noz "" 's|if (q >= 1 \&\& q % PC_HELPERS == w - 1) {|if (0) {|' bench_panel &
wait
for v in h7 h11 h15; do
  for c in panel_t0 panel_t1; do
    echo "$v $c: $(CK_RUN_CASE=$c timeout 120 /tmp/bld-$v/tests/test_backend_ops 2>&1 | tail -1)"
  done
done | tee $O/panel_tests.txt
for v in h7 h11 h15 norest noz; do
  echo "== $v"; timeout 60 /tmp/bld-$v/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)"
done | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name b pt <<<"$s"
  for pk in reg auto reg auto; do
    mkdir -p "$O/runs/$pk/$name"
    QRU_PANEL_KERNEL=$pk timeout 90 /tmp/bld-h7/bench/$b -P "$pt" -p d -r 5 -o "$O/runs/$pk/$name" >"$O/runs/$pk/$name.log" 2>&1
    echo "$pk $name exit $?: $(grep -vE '^%' "$O/runs/$pk/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
timeout 200 /tmp/bld-h7/tests/test_nonfinite 2>&1 | tail -1 | tee $O/nonfinite.txt
rm -rf $O/runs $O/*.log
