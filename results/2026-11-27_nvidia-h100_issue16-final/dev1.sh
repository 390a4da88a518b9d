# First call of the fifth session of 2026-11-27 on HEAD (ebd189c): the six
# shapes of issue 16 in double (default path, cuSOLVER in the same run),
# the rank-k modification's set 0 (issue 18), the Cholesky / GP benchmark
# (item 8), and Nsight kernel times of the modification at k = 1 and of
# the GP append.  Usage: bash dev1.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF"
cmake -S . -B build-h $C >/dev/null 2>&1 && cmake --build build-h -j16 --target bench_add_rows bench_remove_cols bench_add_cols bench_remove_rows bench_modify bench_chol_gpu >$O/build.log 2>&1 || echo build failed
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0 S3:bench_add_cols:8000,3000,200,2980,1 S4:bench_add_cols:8000,3000,200,0,1 S5:bench_remove_rows:12000,6000,100,0,1 S6:bench_remove_rows:8000,1000,200,0,1"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  mkdir -p "$O/runs/$name"
  timeout 120 build-h/bench/$bn -P "$pt" -p d -r 5 -o "$O/runs/$name" >"$O/runs/$name.log" 2>&1
  echo "d $name exit $?: $(grep -vE '^%' "$O/runs/$name"/*tus_d.txt 2>/dev/null | head -1)"
done | tee $O/shapes.txt
mkdir -p $O/modify
timeout 150 build-h/bench/bench_modify -p sd -r 5 --no-sweeps -o $O/modify > $O/modify.log 2>&1; echo "modify exit $?"
grep -vE '^%' $O/modify/*tus_*.txt | head -12
mkdir -p $O/chol
timeout 120 build-h/bench/bench_chol_gpu --gp -r 7 -o $O/chol > $O/chol-gp.log 2>&1; echo "chol gp exit $?"
tail -15 $O/chol-gp.log
OUT=$O timeout 150 bash scripts/gpu-kernel-times build-h modify1 bench_modify -P 8000,3000,1,0,1 -p d -r 1
for f in $O/*.kernels.txt; do echo "== $f"; head -25 $f; done
rm -f $O/*.ncu.csv; rm -rf $O/*-bench $O/runs
cd $O && tar czf ../dev1.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev1.tgz $O/
