# The final tree of 2026-11-26 (the merged trsv kernel, the scratch pool,
# Q and R adopted): the whole CUDA suite and the non-finite suite
# (scripts/gpu-check, no sanitizer sweep), memcheck / racecheck /
# synccheck of backend_ops' basic case (the trsv kernel and the packed
# downloads are there), then scripts/python-gpu-check.
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
git log -1 --format='%h %s' | cut -c1-80
QRU_GPU_CHECK_SKIP_SAN=1 QRU_CMAKE_ARGS=-DQRU_BUILD_BENCH=OFF BUILD=build-fin \
  OUT=$O/gc timeout 330 bash scripts/gpu-check >$O/gpu-check.log 2>&1
echo "gpu-check exit $?"
grep -hE "tests passed|tests failed|nonfinite" $O/gc/*summary.txt $O/gc/*ctest-cuda.log 2>/dev/null | head -6
san() {
  QRU_TEST_BACKEND=cuda CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=basic timeout 150 \
    compute-sanitizer --tool $1 --error-exitcode 99 build-fin/tests/test_backend_ops >$O/san-$1.log 2>&1
  echo "$1 basic: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Checks' $O/san-$1.log | tr '\n' ' ')"
}
san memcheck & san racecheck & san synccheck & wait
mkdir -p /tmp/pydeps
for w in .whl/pytest-*.whl .whl/pluggy-*.whl .whl/iniconfig-*.whl .whl/packaging-*.whl .whl/pygments-*.whl; do
  python3 -m zipfile -e "$w" /tmp/pydeps; done
PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/pydeps NANOBIND=$PWD/.whl/nanobind-3.1.0-py3-none-any.whl \
  JOBS=16 timeout 300 bash scripts/python-gpu-check >$O/python-gpu-check.log 2>&1
echo "python-gpu-check exit $?"
grep -E "passed|failed|us/call" $O/python-gpu-check.log | tail -5
cd $O && tar czf gc.tgz gc && rm -rf gc
