# Issue 18: the rank-k modification's plan on the device.  md-exp.diff
# (an experiment, not committed) lets QRU_EXP_MD=w,mult force the pair
# (phase-2 panel width w, window step mult * max(k, w)) that md_plan_of
# otherwise takes from the cost model; every pair of the model's grid is
# timed at n = 8000, m = 3000, k = 1, 8, 64, Q kept, double, against the
# model's own pick (printed with QRU_EXP_MD_PRINT).  Tree: c00bf5c
# (tree.tar.gz, deleted after).  Usage: bash dev4.sh OUT
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_gpu_issue16-mbarrier; R=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
rm -rf /tmp/x && mkdir -p /tmp/x && tar xzf $D/tree.tar.gz -C /tmp/x && (cd /tmp/x && patch -p1 -s < $R/$D/md-exp.diff) || echo PATCH FAILED
cmake -S /tmp/x -B /tmp/bx -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF >$O/cmake.log 2>&1
cmake --build /tmp/bx -j16 --target bench_modify >$O/build.log 2>&1 || { echo BUILD FAILED; tail $O/build.log; }
echo "built $(date +%T)"
one() { # label k [env]
  rm -rf $O/r; mkdir -p $O/r
  env $3 QRU_EXP_MD_PRINT=1 timeout 60 /tmp/bx/bench/bench_modify -P 8000,3000,$2,0,1 -p d -r 5 -o $O/r > $O/r.log 2>&1
  echo "$1 k=$2 exit $?: $(grep -h md_plan $O/r.log | head -1) | $(grep -vhE '^%' $O/r/*tus_d.txt 2>/dev/null | head -1)"
}
for k in 8 64 1; do
  one model $k ""
  for w in 8 16 32 64; do for m in 1 2 4; do one "w$w,m$m" $k "QRU_EXP_MD=$w,$m"; done; done
  one model $k ""
done | tee $O/plans.txt
rm -rf $O/r $O/r.log
cd $O && tar czf ../dev4.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev4.tgz $O/
