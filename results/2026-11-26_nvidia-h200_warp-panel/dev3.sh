# The warp-chain panel kernel, pipelined version (2026-11-26): its tests (backend_ops' panel
# cases: every panel kernel choice, both precisions; the non-finite suite),
# then bench_panel and issue 16's S1 / S2 (the shapes whose time is the
# panel's column steps) with the previous default (QRU_PANEL_KERNEL=reg)
# and the new one, alternating, in the same build.  Usage: bash dev3.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ARGS=(-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON)
source scripts/gpu-deps
cmake -S . -B build-pw "${ARGS[@]}" >$O/cmake.log 2>&1 || tail -20 $O/cmake.log
cmake --build build-pw -j16 --target test_backend_ops test_nonfinite bench_panel bench_add_rows bench_remove_cols >$O/build.log 2>&1 || tail -30 $O/build.log
export QRU_TEST_BACKEND=cuda
for c in panel_t0 panel_t1; do
  CK_RUN_CASE=$c timeout 120 build-pw/tests/test_backend_ops 2>&1 | tail -4
done | tee $O/panel_tests.txt
timeout 60 build-pw/bench/bench_panel 2>&1 | tee $O/bench_panel.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for rep in 1 2; do
for s in $S; do
  IFS=: read -r name b pt <<<"$s"
  for pk in reg auto; do
    mkdir -p "$O/$pk$rep/$name"
    QRU_PANEL_KERNEL=$pk timeout 90 build-pw/bench/$b -P "$pt" -p d -r 5 -o "$O/$pk$rep/$name" >"$O/$pk$rep/$name.log" 2>&1
    echo "$pk $name exit $?: $(grep -vE '^%' "$O/$pk$rep/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done
done | tee $O/s1s2.txt
timeout 200 build-pw/tests/test_nonfinite 2>&1 | tail -3 | tee $O/nonfinite.txt
cd $O && tar czf runs.tgz reg1 reg2 auto1 auto2 && rm -rf reg1 reg2 auto1 auto2
