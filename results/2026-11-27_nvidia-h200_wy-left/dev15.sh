# The six shapes of issue 16 on the committed tree 9f299ab (default AUTO
# path as the benchmarks run it; cuSOLVER geqrf + ormqr + trsm, and orgqr
# where Q is kept, in the same run), double and float, 2026-11-27.
# Usage: bash dev15.sh OUT  (after dev14.sh on the same machine: /tmp/src-new)
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
[ -d /tmp/src-new ] || { mkdir -p /tmp/src-new; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-new; }
cmake -S /tmp/src-new -B /tmp/bld-new $C >/dev/null 2>&1
cmake --build /tmp/bld-new -j8 --target bench_add_rows bench_remove_cols bench_add_cols bench_remove_rows >/dev/null 2>&1 || echo build failed
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0 S3:bench_add_cols:8000,3000,200,2980,1 S4:bench_add_cols:8000,3000,200,0,1 S5:bench_remove_rows:12000,6000,100,0,1 S6:bench_remove_rows:8000,1000,200,0,1"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for pr in d s; do
    mkdir -p "$O/runs/$pr/$name"
    timeout 120 /tmp/bld-new/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$pr/$name" >"$O/runs/$pr/$name.log" 2>&1
    echo "$pr $name exit $?: $(grep -vE '^%' "$O/runs/$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/shapes.txt
grep -h "^% *set\|^%.*columns\|^% *t_" $O/runs/d/S1/*tus_d.txt | head -8 > $O/columns.txt
rm -rf $O/runs
