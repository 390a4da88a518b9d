# Look-ahead in adding rows (lane / lane_join: the next panel on the
# context's stream while a second stream takes the rest of the trailing
# update; the working tree, "la") against 50bf09b ("base", base17.tar.gz,
# made by git archive), 2026-11-27: the update tests on CUDA, memcheck
# and synccheck of the row updates, S1 (double, float, with Q).
# Usage: bash dev17.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_lookahead
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
tree base17 $D/base17.tar.gz "bench_add_rows" &
tree la . "bench_add_rows test_backend_ops test_update_cost test_update_chain test_update_rows test_update_forms test_update_auto test_context"
wait
T=/tmp/bld-la/tests
for t in test_update_cost test_update_chain test_update_rows test_update_forms test_update_auto test_context; do
  [ -x $T/$t ] && echo "$t: $(timeout 200 $T/$t 2>&1 | grep -E '^[0-9]+%|:F:|:E:' | head -5)"
done | tee $O/tests.txt
for tool in memcheck synccheck; do
  CK_FORK=no timeout 120 compute-sanitizer --tool $tool --error-exitcode 9 $T/test_update_rows >$O/san.log 2>&1
  echo "$tool update_rows exit $?: $(grep -E 'ERROR SUMMARY|Checks' $O/san.log | tail -2 | tr '\n' ' ')"
done | tee $O/sanitize.txt
rm -f $O/san.log
S="S1:bench_add_rows:8000,3000,200,0,0 S1q:bench_add_rows:8000,3000,200,0,1 p500:bench_add_rows:8000,3000,500,0,0"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base17:d la:d base17:s la:s; do
    IFS=: read -r vn pr <<<"$v"
    case $name in S1q|p500) [ $pr = s ] && continue;; esac
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 90 /tmp/bld-$vn/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1.txt
rm -rf $O/runs $O/cmake-*.log $O/build-*.log
