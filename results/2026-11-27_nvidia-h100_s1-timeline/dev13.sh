# The warp-chain panel with W = -Y T in the kernel (HEAD, "w") and also
# the dots for T at the end by every warp ("zend", the working tree),
# 2026-11-27: panel tests, bench_panel (chain and reg), S1/S2, the CUDA
# suite of zend, ncu per kernel of S1/S2 with zend.  Usage: bash dev13.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h100_s1-timeline
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
rm -rf /tmp/exp-w; mkdir -p /tmp/exp-w
tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-w
cp $D/w-chain.cuh.tmp /tmp/exp-w/cuda/cuda_panel_chain.cuh  # HEAD's kernel
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
( cmake -S /tmp/exp-w -B /tmp/bld-w $C >$O/cmake-w.log 2>&1
  cmake --build /tmp/bld-w -j5 --target test_backend_ops bench_panel bench_add_rows bench_remove_cols >$O/build-w.log 2>&1 || tail -20 $O/build-w.log ) &
cmake -S . -B build-z $C >$O/cmake-z.log 2>&1
cmake --build build-z -j11 >$O/build-z.log 2>&1 || tail -30 $O/build-z.log
wait
for b in /tmp/bld-w build-z; do
  for c in panel_t0 panel_t1; do
    echo "$b $c: $(CK_RUN_CASE=$c timeout 40 $b/tests/test_backend_ops 2>&1 | tail -1)"
  done
done | tee $O/panel_tests.txt
for b in /tmp/bld-w build-z; do
  echo "== $b"; timeout 40 $b/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)"
done | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for rep in 1 2; do
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in w:/tmp/bld-w:auto z:build-z:auto reg:build-z:reg; do
    IFS=: read -r vn b pk <<<"$v"
    mkdir -p "$O/runs/$vn/$name"
    QRU_PANEL_KERNEL=$pk timeout 40 $b/bench/$bn -P "$pt" -p d -r 5 -o "$O/runs/$vn/$name" >"$O/runs/$vn/$name.log" 2>&1
    echo "$vn $name exit $?: $(grep -vE '^%' "$O/runs/$vn/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done
done | tee $O/s1s2.txt
rm -rf $O/runs
(cd build-z && timeout 200 ctest -R '^cuda/' -j4 --timeout 150 >$O/ctest-cuda-z.log 2>&1); grep -E "tests passed|tests failed|Failed|\*\*\*Failed|Timeout" $O/ctest-cuda-z.log | head -8
CU=$(dirname $(dirname $(which nvcc)))
gcc -O2 -o /tmp/timeline $D/timeline.c -Iinclude -I$CU/include -Lbuild-z -lqru -L$CU/lib64 -lcudart -Wl,-rpath,$PWD/build-z
for s in s1 s2; do
  /tmp/timeline $s | tee $O/$s-host.txt
  timeout 100 ncu --clock-control none --profile-from-start off --metrics gpu__time_duration.sum --csv /tmp/timeline $s >$O/$s-ncu.csv 2>$O/$s-ncu.err
  python3 $D/summarize.py $O/$s-ncu.csv | tee $O/$s-kernels.txt | head -12
done
rm -f $O/*.csv $O/*.err $O/cmake-*.log $O/build-*.log
