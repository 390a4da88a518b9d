# issue 16 (final, 2026-11-27, fifth session): the side-by-side runs of the four update benchmarks on one
# device, one after the other: the dissertation's algorithm and the new
# default (QRU_UPDATE_AUTO) on this tree, the previous default (AUTO at
# 3c8881f, before issue 16) in .base (from base3c.tar.gz, made here by
# git archive 3c8881f and deleted after the run); each build in parallel first.
# Usage (device): bash results/.../plots.sh OUTDIR BUDGET
set -u
OUTD=$1; BUD=${2:-20}
ROOT=$PWD
mkdir -p "$OUTD"
say() { echo "$*"; }
ARGS=(-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF)
source scripts/gpu-deps
B="bench_add_cols bench_remove_cols bench_add_rows bench_remove_rows"
build() { # src dir, build dir
  cmake -S "$1" -B "$2" "${ARGS[@]}" -DQRU_BUILD_TESTS=OFF >"$2.log" 2>&1 &&
    cmake --build "$2" -j8 --target $B >>"$2.log" 2>&1 || echo "BUILD FAILED $1"
}
rm -rf .base && mkdir -p .base && tar xzf "$(dirname "$0")/base3c.tar.gz" -C .base
build . build-pl-head & build .base build-pl-base & wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log -1 --format='head %h %s' | cut -c1-80
run() { # label build alg
  mkdir -p "$OUTD/$1"
  for b in $B; do
    t0=$(date +%s)
    QRU_TEST_BACKEND=cuda QRU_BENCH_ALG=$3 timeout 200 "$2/bench/$b" \
      -o "$OUTD/$1" -t "$BUD" >"$OUTD/$1/$b.log" 2>&1
    echo "$1 $b exit $? $(( $(date +%s) - t0 )) s"
  done
}
run dissertation build-pl-head dissertation
run new-default build-pl-head auto
run previous-default build-pl-base auto
