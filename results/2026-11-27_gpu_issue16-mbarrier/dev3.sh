# The final tree of this session (c00bf5c, tree.tar.gz, deleted after):
# the whole CUDA suite and the non-finite suite (scripts/gpu-check without
# the sanitizer sweep), the GP append (bench_chol_gpu --gp: the single
# read-back of 3ef2020 / 0c661ed), then memcheck of backend_ops' Givens
# sweeps cases (all kernels; racecheck of those cases had stopped with
# "The Sanitizer failed to handle a hardware exception", dev2).
# Usage: bash dev3.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_gpu_issue16-mbarrier; R=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/t && tar xzf $D/tree.tar.gz -C /tmp/t && ln -sfn $R/.deps /tmp/t/.deps
cd /tmp/t
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=/tmp/bf OUT=$O/gc timeout 330 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $? $(date +%T)"
grep -hE "tests passed|tests failed" $O/gc/*ctest-cuda.log | head -3
grep -hE "\*\*\*Failed|Timeout|Not Run" $O/gc/*ctest-cuda.log | head
grep -hE "Checks" $O/gc/*nonfinite.log | head -2
cp $O/gc/*ctest-cuda.log $O/gc/*nonfinite.log $O/ 2>/dev/null; rm -rf $O/gc
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
mkdir -p $O/chol
cmake -S . -B /tmp/bf -DQRU_BUILD_BENCH=ON >/dev/null 2>&1 && cmake --build /tmp/bf -j16 --target bench_chol_gpu >/dev/null 2>&1 || echo bench build failed
timeout 60 /tmp/bf/bench/bench_chol_gpu --gp -r 7 -o $O/chol > $O/chol-gp.log 2>&1; echo "chol gp exit $?"
grep -vE '^%' $O/chol/*gp*_d.txt 2>/dev/null | head -5
mc() {
  CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=$1 timeout 170 compute-sanitizer --tool memcheck --error-exitcode 99 \
    /tmp/bf/tests/test_backend_ops > $O/memcheck-$1.log 2>&1
  echo "memcheck $1: exit $? $(grep -E 'ERROR SUMMARY|Checks' $O/memcheck-$1.log | tr '\n' ' ')"
}
mc sweeps_t0 & mc sweeps_t1 & wait
cd $O && tar czf ../dev3.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev3.tgz $O/
