# wy_left on the FP64 tensor cores (cuda/cuda_wy.cu, the working tree:
# "dmma") against 50bf09b ("base", base16.tar.gz, made by git archive; CUDA
# runs the cuBLAS sequence there), 2026-11-27: the op's test, the update
# tests on CUDA, compute-sanitizer (memcheck, racecheck, initcheck,
# synccheck) of the op's test, S1/S2 (double, float; with Q).
# Usage: bash dev16.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_wy-left
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
tree() { # tree NAME SOURCE(tar.gz or .) TARGETS
  rm -rf /tmp/src-$1; mkdir -p /tmp/src-$1
  if [ "$2" = . ]; then
    tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$1
  else tar -xzf $2 -C /tmp/src-$1; fi
  cmake -S /tmp/src-$1 -B /tmp/bld-$1 $C >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j8 --target $3 >$O/build-$1.log 2>&1 || tail -20 $O/build-$1.log
}
tree base16 $D/base16.tar.gz "bench_add_rows bench_remove_cols" &
tree dmma . "bench_add_rows bench_remove_cols test_backend_ops test_update_cost test_update_chain test_update_rows test_update_cols test_update_modify test_update_forms"
wait
T=/tmp/bld-dmma/tests
{
for c in householder panel_tp; do
  echo "backend_ops $c: $(CK_RUN_CASE=$c timeout 120 $T/test_backend_ops 2>&1 | grep -E '^[0-9]+%|:F:|:E:' | head -5)"
done
for t in test_update_cost test_update_chain test_update_rows test_update_cols test_update_modify test_update_forms; do
  [ -x $T/$t ] && echo "$t: $(timeout 200 $T/$t 2>&1 | grep -E '^[0-9]+%|:F:|:E:' | head -5)"
done
} | tee $O/tests.txt
for tool in memcheck racecheck initcheck synccheck; do
  CK_RUN_CASE=householder CK_FORK=no timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 --kernel-name regex:wy_left $T/test_backend_ops >$O/san.log 2>&1
  echo "$tool householder exit $?: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Checks' $O/san.log | tail -2 | tr '\n' ' ')"
done | tee $O/sanitize.txt
rm -f $O/san.log
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0 S1q:bench_add_rows:8000,3000,200,0,1 S2q:bench_remove_cols:6000,3000,200,0,1"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base16:d dmma:d base16:s dmma:s; do
    IFS=: read -r vn pr <<<"$v"
    case $name in *q) [ $pr = s ] && continue;; esac
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 90 /tmp/bld-$vn/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs $O/cmake-*.log $O/build-*.log
