# issue 17 on the device (2026-11-26): scripts/python-gpu-check (the module
# with CUDA; pytest with CuPy / PyTorch / JAX producers; bench_overhead),
# then profile_overhead.py (where the CuPy call's host time goes).
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-26_gpu_issue17-overhead
mkdir -p /tmp/pydeps
for w in .whl/pytest-*.whl .whl/pluggy-*.whl .whl/iniconfig-*.whl .whl/packaging-*.whl .whl/pygments-*.whl; do
  python3 -m zipfile -e "$w" /tmp/pydeps; done
nvidia-smi --query-gpu=name --format=csv,noheader
PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/pydeps NANOBIND=$PWD/.whl/nanobind-3.1.0-py3-none-any.whl \
  JOBS=16 timeout 400 bash scripts/python-gpu-check >$O/python-gpu-check.log 2>&1
echo "python-gpu-check exit $?"
grep -E "passed|failed|error|us/call|qru [0-9]|SKIPPED|FAILED" $O/python-gpu-check.log | tail -30
PYTHONPATH=build-py-gpu/pkg timeout 120 python3 $D/profile_overhead.py 2>&1 | tee $O/profile_overhead.txt
PYTHONPATH=build-py-gpu/pkg timeout 120 python3 python/bench/bench_overhead.py cupy torch 2>&1 | tee $O/bench_overhead_again.txt
