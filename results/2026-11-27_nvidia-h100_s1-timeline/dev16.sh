# Z in 4 x 4 tiles again, reduced by halving (the working tree, "bc")
# against HEAD ("base": 8 x 8 tiles, dev15), 2026-11-27: panel tests
# (timed), bench_panel, S1/S2 (base, bc, reg), the CUDA suite of
# bc, and the clock64 breakdown of bc (clk-patch.py).  Usage: bash dev16.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h100_s1-timeline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
mk() { # name, file replacing cuda/cuda_panel_chain.cuh or patch, targets
  rm -rf /tmp/exp-$1; mkdir -p /tmp/exp-$1
  tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-$1
  case $2 in *.py) python3 $2 /tmp/exp-$1/cuda/cuda_panel_chain.cuh ;; *) cp $2 /tmp/exp-$1/cuda/cuda_panel_chain.cuh ;; esac
  cmake -S /tmp/exp-$1 -B /tmp/bld-$1 $C >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j5 --target $3 >$O/build-$1.log 2>&1 || tail -20 $O/build-$1.log
}
mk base $D/base-chain.cuh.tmp "test_backend_ops bench_panel bench_add_rows bench_remove_cols" &
mk clk $D/clk-patch.py "bench_panel" &
cmake -S . -B build-bc $C >$O/cmake-bc.log 2>&1
cmake --build build-bc -j6 >$O/build-bc.log 2>&1 || tail -30 $O/build-bc.log
wait
for b in /tmp/bld-base build-bc; do
  for c in panel_t0 panel_t1; do
    s0=$(date +%s); r=$(CK_RUN_CASE=$c timeout 120 $b/tests/test_backend_ops 2>&1 | tail -1)
    echo "$b $c ($(( $(date +%s) - s0 )) s): $r"
  done
done | tee $O/panel_tests.txt
for b in /tmp/bld-base build-bc; do
  echo "== $b"; timeout 40 $b/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)"
done | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for rep in 1 2; do
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base:/tmp/bld-base:auto bc:build-bc:auto reg:build-bc:reg; do
    IFS=: read -r vn b pk <<<"$v"
    mkdir -p "$O/runs/$vn/$name"
    QRU_PANEL_KERNEL=$pk timeout 40 $b/bench/$bn -P "$pt" -p d -r 5 -o "$O/runs/$vn/$name" >"$O/runs/$vn/$name.log" 2>&1
    echo "$vn $name exit $?: $(grep -vE '^%' "$O/runs/$vn/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done
done | tee $O/s1s2.txt
# float (S1, S2): the chain kernel and the register kernel
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in bc:build-bc:auto reg:build-bc:reg; do
    IFS=: read -r vn b pk <<<"$v"
    mkdir -p "$O/runs/$vn/$name"
    QRU_PANEL_KERNEL=$pk timeout 40 $b/bench/$bn -P "$pt" -p s -r 5 -o "$O/runs/$vn/$name" >"$O/runs/$vn/$name.log" 2>&1
    echo "$vn $name float exit $?: $(grep -vE '^%' "$O/runs/$vn/$name"/*tus_s.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2-float.txt
rm -rf $O/runs
timeout 60 /tmp/bld-clk/bench/bench_panel 2>&1 | grep -E "chain cycles|phases|^  1 +264 +64" | tee $O/clock.txt
(cd build-bc && timeout 230 ctest -R '^cuda/' -j4 --timeout 180 >$O/ctest-bc.log 2>&1)
grep -E "tests passed|tests failed|Failed|Timeout" $O/ctest-bc.log | head -8
rm -f $O/cmake-*.log $O/build-*.log
