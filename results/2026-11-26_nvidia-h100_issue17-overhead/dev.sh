# issue 17 on an H100 (2026-11-26): scripts/python-gpu-check (the module
# with CUDA; pytest with CuPy / PyTorch / JAX producers; bench_overhead
# with paired batches), then bench_overhead again with 31 pairs.
set -u
O=$1; mkdir -p "$O"
mkdir -p /tmp/pydeps
for w in .whl/pytest-*.whl .whl/pluggy-*.whl .whl/iniconfig-*.whl .whl/packaging-*.whl .whl/pygments-*.whl; do
  python3 -m zipfile -e "$w" /tmp/pydeps; done
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/pydeps NANOBIND=$PWD/.whl/nanobind-3.1.0-py3-none-any.whl \
  JOBS=16 timeout 400 bash scripts/python-gpu-check >$O/python-gpu-check.log 2>&1
echo "python-gpu-check exit $?"
grep -E "passed|failed|us/call|qru [0-9]" $O/python-gpu-check.log | tail -8
PYTHONPATH=build-py-gpu/pkg timeout 150 python3 python/bench/bench_overhead.py cupy torch --batches 31 2>&1 | tee $O/bench_overhead_31.txt
