# issue 16, eighth session (2026-11-27): the side-by-side runs of the four
# update benchmarks on one device, one after the other, as the fifth
# session's (results/2026-11-27_nvidia-h100_issue16-final/plots.sh), on
# this tree: the dissertation's algorithm, the default QRU_UPDATE_AUTO,
# QRU_UPDATE_FAST (for the check of AUTO against the better of the update
# and the refactorisation); the previous default (AUTO at 3c8881f, before
# issue 16) in .base (from base3c.tar.gz, made here by git archive
# 3c8881f and deleted after the run).  Usage (device): bash plots.sh OUTDIR
set -u
OUTD=$1; BUD=20
mkdir -p "$OUTD"
ARGS=(-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF)
say() { echo "$*"; }  # scripts/gpu-deps reports through it
source scripts/gpu-deps
B="bench_add_cols bench_remove_cols bench_add_rows bench_remove_rows"
build() { # src dir, build dir
  cmake -S "$1" -B "$2" "${ARGS[@]}" -DQRU_BUILD_TESTS=OFF >"$2.log" 2>&1 &&
    cmake --build "$2" -j8 --target $B >>"$2.log" 2>&1 || echo "BUILD FAILED $1"
}
rm -rf .base && mkdir -p .base && tar xzf "$(dirname "$0")/base3c.tar.gz" -C .base
build . /tmp/build-pl-head & build .base /tmp/build-pl-base & wait
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log -1 --format='head %h %s' 2>/dev/null | cut -c1-80
run() { # label build alg
  mkdir -p "$OUTD/$1"
  for b in $B; do
    t0=$(date +%s)
    QRU_TEST_BACKEND=cuda QRU_BENCH_ALG=$3 timeout 200 "$2/bench/$b" \
      -o "$OUTD/$1" -t "$BUD" >"$OUTD/$1/$b.log" 2>&1
    echo "$1 $b exit $? $(( $(date +%s) - t0 )) s"
  done
}
run new-default /tmp/build-pl-head auto
run fast /tmp/build-pl-head fast
run dissertation /tmp/build-pl-head dissertation
run previous-default /tmp/build-pl-base auto
rm -rf .base
cd $OUTD && tar czf ../plots8.tgz . && cd - >/dev/null && rm -rf $OUTD/* && mv $OUTD/../plots8.tgz $OUTD/
