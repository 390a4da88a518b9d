# The committed tree 9f299ab (wy_left; on CUDA the cuBLAS sequence as one
# backend call) through scripts/gpu-check (the whole CUDA suite and the
# non-finite suite, no sanitizers), then S1/S2 (double, float) and S1/S2
# with Q against f54a73a ("base", base14.tar.gz, made by git archive),
# 2026-11-27.  Usage: bash dev14.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_wy-left
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
rm -rf /tmp/src-base && mkdir -p /tmp/src-base && tar -xzf $D/base14.tar.gz -C /tmp/src-base
rm -rf /tmp/src-new && mkdir -p /tmp/src-new
tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-new
for t in b14:base new:new; do
  IFS=: read -r bd sd <<<"$t"
  (cmake -S /tmp/src-$sd -B /tmp/bld-$bd $C >/dev/null 2>&1 && cmake --build /tmp/bld-$bd -j3 --target bench_add_rows bench_remove_cols >/dev/null 2>&1) &
done
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-fin OUT=$O/gc timeout 330 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
wait
grep -hE "tests passed|tests failed|nonfinite:" $O/gc/*summary.txt $O/gc/*ctest-cuda.log 2>/dev/null | head -6
grep -hE "\*\*\*Failed|Timeout" $O/gc/*ctest-cuda.log | head
cp $O/gc/*ctest-cuda.log $O/ctest-cuda.log 2>/dev/null; rm -rf $O/gc $O/gpu-check.log
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0 S1q:bench_add_rows:8000,3000,200,0,1 S2q:bench_remove_cols:6000,3000,200,0,1"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in /tmp/bld-b14:base:d /tmp/bld-new:new:d /tmp/bld-b14:base:s /tmp/bld-new:new:s; do
    IFS=: read -r b vn pr <<<"$v"
    case $name in *q) [ $pr = s ] && continue;; esac
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 90 $b/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs
