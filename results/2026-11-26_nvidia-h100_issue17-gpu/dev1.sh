# issue 17 on the device: the Python package with the CUDA backend
# (scripts/python-gpu-check: CMake build with a carried nanobind, the tests
# with CuPy / PyTorch / JAX producers, the call-overhead benchmark), then
# (issue 16) racecheck of the panel and Givens test cases without the
# kernels that synchronise across blocks (grid-wide or cluster barriers),
# to see whether those are what runs past the limit.
set -u
O=$1; mkdir -p "$O"
mkdir -p /tmp/pydeps
for w in .whl/pytest-*.whl .whl/pluggy-*.whl .whl/iniconfig-*.whl .whl/packaging-*.whl .whl/pygments-*.whl; do
  python3 -m zipfile -e "$w" /tmp/pydeps; done
# the sanitizer build in the background (tests, CUDA only)
( QRU_GPU_CHECK_SKIP_CTEST=1 QRU_GPU_CHECK_SKIP_NONFINITE=1 QRU_GPU_CHECK_SKIP_SAN=1 \
  QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-san OUT=$O/sb \
  bash scripts/gpu-check >/dev/null 2>&1 ) &
BPID=$!
python3 -c 'import sys, numpy, cupy, torch, jax; print(sys.version.split()[0], "numpy", numpy.__version__, "cupy", cupy.__version__, "torch", torch.__version__, "jax", jax.__version__)' 2>&1 | tail -1
PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/pydeps NANOBIND=$PWD/.whl/nanobind-3.1.0-py3-none-any.whl \
  JOBS=8 timeout 330 bash scripts/python-gpu-check >$O/python-gpu-check.log 2>&1
echo "python-gpu-check exit $?"
grep -E "passed|failed|error|us a call|qru [0-9]|SKIPPED" $O/python-gpu-check.log | tail -25
wait $BPID
compute-sanitizer --help 2>&1 | grep -E "kernel-name" | head -3
san() { # case exclude
  QRU_TEST_BACKEND=cuda CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=$1 timeout 200 \
    compute-sanitizer --tool racecheck --kernel-name-exclude kns=$2 --error-exitcode 99 \
    build-san/tests/test_backend_ops >$O/race-$1.log 2>&1
  echo "racecheck $1 without *$2*: exit $? $(grep -E 'RACECHECK SUMMARY|Checks' $O/race-$1.log | tr '\n' ' ')"
}
san panel grid & san givens cluster & wait
rm -rf $O/sb
