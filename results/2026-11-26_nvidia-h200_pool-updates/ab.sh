# Before / after the context's scratch memory pool (2026-11-26), one
# device, one call: the tree fc711d6 (.base: git archive, without the
# pool and the packed narrow downloads) and this tree, each built with
# the benchmarks; then, alternating before / after (default algorithm,
# cuSOLVER in the same run): issue 16's S1-S5 one
# problem each (-P; the first call's -P 0 was not an option: set 0 is the
# default table), bench_modify (-p d) and bench_chol_gpu.  Usage (device): bash ab.sh OUTDIR
set -u
O=$1; mkdir -p "$O"
say() { echo "$*"; }
left() { [ $SECONDS -lt 470 ]; } # what starts after 470 s is skipped (NOT RUN)
ARGS=(-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_TESTS=OFF)
source scripts/gpu-deps
B="bench_add_rows bench_remove_cols bench_add_cols bench_remove_rows bench_modify bench_chol_gpu"
build() { cmake -S "$1" -B "$2" "${ARGS[@]}" >"$O/$3-build.log" 2>&1 &&
  cmake --build "$2" -j8 --target $B >>"$O/$3-build.log" 2>&1 || echo "BUILD FAILED $1"; }
build .base build-ab-before before & build . build-ab-after after & wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export QRU_TEST_BACKEND=cuda
# the target shapes of issue 16 (S1-S5): bench, n,m,p,k,keepq
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0
S3:bench_add_cols:8000,3000,200,2980,1 S4:bench_add_cols:8000,3000,200,0,1
S5:bench_remove_rows:12000,6000,100,0,1"
for s in $S; do
  IFS=: read -r name b pt <<<"$s"
  for t in before after; do
    left || { echo "$t $name NOT RUN"; continue; }
    mkdir -p "$O/$t/$name"; t0=$SECONDS
    timeout 90 build-ab-$t/bench/$b -P "$pt" -p d -r 5 -o "$O/$t/$name" >"$O/$t/$name.log" 2>&1
    echo "$t $name exit $? $(( SECONDS - t0 )) s: $(grep -vE '^%' "$O/$t/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done
for t in before after; do
  left || { echo "$t bench_modify, bench_chol_gpu NOT RUN"; continue; }
  mkdir -p "$O/$t/modify"
  timeout 90 build-ab-$t/bench/bench_modify -p d -r 5 --no-sweeps -o "$O/$t/modify" >"$O/$t/modify.log" 2>&1
  echo "$t bench_modify exit $?"
  left || { echo "$t bench_chol_gpu NOT RUN"; continue; }
  timeout 60 build-ab-$t/bench/bench_chol_gpu -r 7 >"$O/$t/chol_gpu.log" 2>&1
  echo "$t bench_chol_gpu exit $?"
done
cd "$O" && tar czf ab.tgz before after && rm -rf before after
