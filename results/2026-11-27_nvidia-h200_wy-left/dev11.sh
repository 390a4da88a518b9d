# wy_left (the block reflector of a panel on a two-part matrix by one
# kernel, the working tree: "wyl") against f54a73a ("base", base11.tar.gz,
# made by git archive), 2026-11-27: the op's test and the update cost
# model on CUDA, S1 and S2 (double, float, R only; S1 with Q).
# Usage: bash dev11.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_wy-left
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
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
tree base $D/base11.tar.gz "bench_add_rows bench_remove_cols" &
tree wyl . "bench_add_rows bench_remove_cols test_backend_ops test_update_cost test_update_chain"
wait
for c in householder panel_tp; do
  echo "wyl $c: $(CK_RUN_CASE=$c timeout 120 /tmp/bld-wyl/tests/test_backend_ops 2>&1 | grep -E '^[0-9]+%|:F:|:E:' | head -5)"
done | tee $O/tests.txt
echo "update_cost: $(timeout 120 /tmp/bld-wyl/tests/test_update_cost 2>&1 | grep -E '^[0-9]+%|:F:' | head -5)" | tee -a $O/tests.txt
echo "update_chain: $(timeout 200 /tmp/bld-wyl/tests/test_update_chain 2>&1 | grep -E '^[0-9]+%|:F:' | head -5)" | tee -a $O/tests.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0 S1q:bench_add_rows:8000,3000,200,0,1 S2q:bench_remove_cols:6000,3000,200,0,1"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base:d wyl:d base:s wyl:s; do
    IFS=: read -r vn pr <<<"$v"
    case $name in *q) [ $pr = s ] && continue;; esac
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 90 /tmp/bld-$vn/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs $O/cmake-*.log $O/build-*.log
