# racecheck of issue 16's kernels on the tree of 008c17b (tree.tar.gz,
# deleted after): backend_ops' panel, Givens-sweep and accumulation cases
# (QRU_TEST_QUICK=1, float and double), one run per kernel so that the
# slow instrumented kernels run side by side, and the Householder tiles'
# and fast cases of update_rows / update_cols with every qru_ kernel
# instrumented.
# Usage: bash dev2.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_gpu_issue16-mbarrier
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
mkdir -p /tmp/t && tar xzf $D/tree.tar.gz -C /tmp/t
cmake -S /tmp/t -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bt -j16 --target test_backend_ops test_update_rows test_update_cols >$O/build.log 2>&1 || { echo BUILD FAILED; tail -20 $O/build.log; }
echo "built $(date +%T)"
san() { # name program case filter...
  local n=$1 p=$2 c=$3; shift 3
  local t0=$(date +%s)
  CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=$c timeout 470 \
    compute-sanitizer --tool racecheck "$@" --error-exitcode 99 \
    /tmp/bt/tests/test_$p >$O/race-$n.log 2>&1
  echo "$n ($p $c $*): exit $? $(( $(date +%s) - t0 )) s: $(grep -E 'RACECHECK SUMMARY|Checks' $O/race-$n.log | tr '\n' ' ')"
}
X="--kernel-name-exclude kns=qru_panel_qr_reg --kernel-name-exclude kns=qru_panel_qr_smem --kernel-name-exclude kns=qru_panel_qr_grid --kernel-name-exclude kns=qru_panel_qr_chain"
{
for c in panel_t0 panel_t1; do
  for k in qru_panel_qr_reg qru_panel_qr_smem qru_panel_qr_grid; do
    san $c-${k#qru_panel_qr_} backend_ops $c --kernel-name kns=$k &
  done
  san $c-rest backend_ops $c --kernel-name kns=qru_ $X &
done
san panel_tp backend_ops panel_tp --kernel-name kns=qru_ &
for c in sweeps_t0 sweeps_t1; do
  san $c-smem backend_ops $c --kernel-name kns=qru_givens_sweeps_smem &
  san $c-cluster backend_ops $c --kernel-name kns=qru_givens_sweeps_cluster &
  san $c-chain backend_ops $c --kernel-name kns=qru_givens_sweeps_chain &
  san $c-global backend_ops $c --kernel-name kns=qru_givens_sweeps --kernel-name-exclude kns=qru_givens_sweeps_smem --kernel-name-exclude kns=qru_givens_sweeps_cluster --kernel-name-exclude kns=qru_givens_sweeps_chain &
done
san givens backend_ops givens --kernel-name kns=qru_ &
san accum backend_ops accum --kernel-name kns=qru_ &
for c in tiles fast; do
  san rows-$c update_rows $c --kernel-name kns=qru_ &
  san cols-$c update_cols $c --kernel-name kns=qru_ &
done
wait
} | tee $O/racecheck.txt
for f in $O/race-*.log; do [ $(stat -c %s $f) -gt 100000 ] && gzip $f; done
cd $O && tar czf ../dev2.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev2.tgz $O/
