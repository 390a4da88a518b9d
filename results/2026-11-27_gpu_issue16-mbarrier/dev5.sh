# Where racecheck stopped with "The Sanitizer failed to handle a hardware
# exception" in backend_ops' sweeps cases (dev2), with a line per case
# (QRU_TEST_VERBOSE=1), and how far racecheck of the cluster and chain
# sweeps kernels gets alone in 240 s.  Tree: c00bf5c (tree.tar.gz).
# Usage: bash dev5.sh OUT
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_gpu_issue16-mbarrier
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda QRU_TEST_VERBOSE=1
rm -rf /tmp/t && mkdir -p /tmp/t && tar xzf $D/tree.tar.gz -C /tmp/t
cmake -S /tmp/t -B /tmp/bt -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bt -j16 --target test_backend_ops >$O/build.log 2>&1 || { echo BUILD FAILED; tail -20 $O/build.log; }
echo "built $(date +%T)"
san() { # name case tmo filter...
  local n=$1 c=$2 tmo=$3; shift 3
  local t0=$(date +%s)
  CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=$c timeout $tmo \
    compute-sanitizer --tool racecheck "$@" --error-exitcode 99 \
    /tmp/bt/tests/test_backend_ops >$O/race-$n.log 2>&1
  echo "$n ($c $*): exit $? $(( $(date +%s) - t0 )) s: $(grep -E 'RACECHECK SUMMARY|Checks|Internal' $O/race-$n.log | tr '\n' ' ')"
  echo "   last case: $(grep -E 'givens_sweeps' $O/race-$n.log | tail -1)"
}
EX="--kernel-name-exclude kns=qru_givens_sweeps_smem --kernel-name-exclude kns=qru_givens_sweeps_cluster --kernel-name-exclude kns=qru_givens_sweeps_chain"
{
san t1-global sweeps_t1 90 --kernel-name kns=qru_givens_sweeps $EX &
san t0-global sweeps_t0 200 --kernel-name kns=qru_givens_sweeps $EX &
san t1-chain sweeps_t1 240 --kernel-name kns=qru_givens_sweeps_chain &
san t1-cluster sweeps_t1 240 --kernel-name kns=qru_givens_sweeps_cluster &
san t1-smem sweeps_t1 240 --kernel-name kns=qru_givens_sweeps_smem &
wait
} | tee $O/racecheck.txt
cd $O && tar czf ../dev5.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev5.tgz $O/
