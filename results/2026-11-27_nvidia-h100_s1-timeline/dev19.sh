# What initcheck reports in backend_ops' double panel case (dev18: 445
# errors with only the chain kernel instrumented), 2026-11-27: the first
# reports with the chain kernel only, with the register kernel instead
# (QRU_PANEL_KERNEL=reg, the previous default), and unfiltered.
# Usage: bash dev19.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
cmake -S . -B build-ic -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build build-ic -j16 --target test_backend_ops >$O/build.log 2>&1 || tail -20 $O/build.log
ic() { # name, extra sanitizer args, env
  env $3 CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=panel_t1 timeout 150 \
    compute-sanitizer --tool initcheck --print-limit 4 $2 \
    build-ic/tests/test_backend_ops >$O/ic-$1.log 2>&1
  echo "== $1: exit $? $(grep -E 'ERROR SUMMARY' $O/ic-$1.log | head -1)"
  grep -E "^========= +(Uninitialized|at |by thread|Address|Host Frame:.*qru_)" $O/ic-$1.log | head -24
}
{ ic chain "--kernel-name kns=qru_panel_qr_chain" "QRU_X=1"
  ic reg "--kernel-name kns=qru_panel_qr_reg" "QRU_PANEL_KERNEL=reg"
  ic all "" "QRU_X=1"; } | tee $O/initcheck.txt
rm -f $O/*.log
