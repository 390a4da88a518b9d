# The warp-chain panel with the hand-off column first and grouped
# reductions (2026-11-26): panel tests, bench_panel of the kernel and of
# timing-only variants (helpers without the rest of their columns; without
# the z's), S1/S2 against QRU_PANEL_KERNEL=reg.  Usage: bash dev4.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
mk() { # name, sed expression on cuda/cuda_panel_chain.cuh (or "")
  rm -rf /tmp/exp-$1; mkdir -p /tmp/exp-$1; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-$1
  [ -n "$2" ] && sed -i "$2" /tmp/exp-$1/cuda/cuda_panel_chain.cuh
  cmake -S /tmp/exp-$1 -B /tmp/bld-$1 -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j5 --target bench_panel >$O/build-$1.log 2>&1 || echo "BUILD FAILED $1"
}
mk norest 's|if (t != (T)0) { /\* the rest \*/|if (0) {|' &
mk noz 's|if (q >= 1 \&\& q % PC_HELPERS == w - 1) {|if (0) {|' &
cmake -S . -B build-pw -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON >$O/cmake.log 2>&1
cmake --build build-pw -j6 --target test_backend_ops test_nonfinite bench_panel bench_add_rows bench_remove_cols >$O/build.log 2>&1 || tail -30 $O/build.log
wait
for c in panel_t0 panel_t1; do
  CK_RUN_CASE=$c timeout 120 build-pw/tests/test_backend_ops 2>&1 | tail -1
done | tee $O/panel_tests.txt
for v in build-pw /tmp/bld-norest /tmp/bld-noz; do
  echo "== $v"; timeout 60 $v/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)"
done | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name b pt <<<"$s"
  for pk in reg auto reg auto; do
    mkdir -p "$O/runs/$pk/$name"
    QRU_PANEL_KERNEL=$pk timeout 90 build-pw/bench/$b -P "$pt" -p d -r 5 -o "$O/runs/$pk/$name" >"$O/runs/$pk/$name.log" 2>&1
    echo "$pk $name exit $?: $(grep -vE '^%' "$O/runs/$pk/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
timeout 200 build-pw/tests/test_nonfinite 2>&1 | tail -1 | tee $O/nonfinite.txt
rm -rf $O/runs
