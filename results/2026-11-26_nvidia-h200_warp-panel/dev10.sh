# After dev9 (the chain warp waited 775 of its ~2350 cycles a step for the
# helpers' hand-off, 2026-11-26): the dots for T spread over all helpers
# (this tree), and the same with the helpers' columns in one group of 9
# (PC_G=9); panel tests, bench_panel, S1/S2 against QRU_PANEL_KERNEL=reg.
# Usage: bash dev10.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
mk() { # name, CUDA flags, targets
  rm -rf /tmp/exp-$1; mkdir -p /tmp/exp-$1; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-$1
  cmake -S /tmp/exp-$1 -B /tmp/bld-$1 -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON "-DCMAKE_CUDA_FLAGS=$2" >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j8 --target $3 >$O/build-$1.log 2>&1 || echo "BUILD FAILED $1"
}
mk zs "" "test_backend_ops bench_panel bench_add_rows bench_remove_cols" &
mk zs9 "-DPC_G=9" "test_backend_ops bench_panel" &
wait
for v in zs zs9; do
  for c in panel_t0 panel_t1; do
    echo "$v $c: $(CK_RUN_CASE=$c timeout 60 /tmp/bld-$v/tests/test_backend_ops 2>&1 | tail -1)"
  done
done | tee $O/panel_tests.txt
for v in zs zs9 zs; do
  echo "== $v"; timeout 60 /tmp/bld-$v/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)"
done | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name b pt <<<"$s"
  for pk in reg auto; do
    mkdir -p "$O/runs/$pk/$name"
    QRU_PANEL_KERNEL=$pk timeout 60 /tmp/bld-zs/bench/$b -P "$pt" -p d -r 5 -o "$O/runs/$pk/$name" >"$O/runs/$pk/$name.log" 2>&1
    echo "$pk $name exit $?: $(grep -vE '^%' "$O/runs/$pk/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs $O/*.log
