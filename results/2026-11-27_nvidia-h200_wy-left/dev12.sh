# wy_left's kernel with every load of a chunk in flight (the working tree,
# "wyl": 8 columns a block; "wyl16": 16, QRU_WYL_CB patched) against
# f54a73a ("base", base11.tar.gz), 2026-11-27: the op's test, S1 and S2
# (double; S1 float).  Usage: bash dev12.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_wy-left
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
tree() { # tree NAME SOURCE(tar.gz or .) CB TARGETS
  rm -rf /tmp/src-$1; mkdir -p /tmp/src-$1
  if [ "$2" = . ]; then
    tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$1
  else tar -xzf $2 -C /tmp/src-$1; fi
  [ "$3" = - ] || sed -i "s/#define QRU_WYL_CB 8/#define QRU_WYL_CB $3/" /tmp/src-$1/src/qru_internal.h
  cmake -S /tmp/src-$1 -B /tmp/bld-$1 $C >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j5 --target $4 >$O/build-$1.log 2>&1 || tail -20 $O/build-$1.log
}
tree base $D/base11.tar.gz - "bench_add_rows bench_remove_cols" &
tree wyl16 . 16 "bench_add_rows bench_remove_cols test_backend_ops" &
tree wyl . - "bench_add_rows bench_remove_cols test_backend_ops"
wait
for t in wyl wyl16; do
  echo "$t householder: $(CK_RUN_CASE=householder timeout 120 /tmp/bld-$t/tests/test_backend_ops 2>&1 | grep -E '^[0-9]+%|:F:|:E:' | head -5)"
done | tee $O/tests.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base:d wyl:d wyl16:d base:s wyl:s; do
    IFS=: read -r vn pr <<<"$v"
    [ $name = S2 ] && [ $pr = s ] && continue
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 90 /tmp/bld-$vn/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs $O/cmake-*.log $O/build-*.log
