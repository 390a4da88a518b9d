# initcheck of the tall-panel grid kernel after its fix (2026-11-27: it
# copied T's whole array from global memory, of which only the strict
# lower part had been written): backend_ops' panel cases, then initcheck
# of the double case with only qru_panel_qr_grid instrumented.
# Usage: bash dev22.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
cmake -S . -B build-ic -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build build-ic -j16 --target test_backend_ops >$O/build.log 2>&1 || tail -20 $O/build.log
for c in panel_t0 panel_t1; do
  echo "$c: $(CK_RUN_CASE=$c timeout 90 build-ic/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=panel_t1 timeout 150 compute-sanitizer --tool initcheck \
  --print-limit 4 --kernel-name kns=qru_panel_qr_grid build-ic/tests/test_backend_ops >$O/ic.log 2>&1
echo "initcheck grid: exit $? $(grep -E 'ERROR SUMMARY' $O/ic.log | head -1)" | tee $O/initcheck.txt
grep -E "^========= +(Uninitialized|at |Address)" $O/ic.log | head -8 | tee -a $O/initcheck.txt
rm -f $O/*.log
