# Where the modification at k = 64 loses time beside the second queue
# (HEAD 4d7c3ca + md-exp3.diff, an experiment patch, not committed):
# QRU_EXP_NOQ=1 skips the copies and every block reflector on Q and d
# (wrong results: the first queue's time alone), QRU_EXP_SMT=N gives the
# second queue's cuBLAS handle cublasSetSmCountTarget(N) (of 132 SMs),
# QRU_EXP_CL=1 runs the commit's S Y' on the second queue beside the
# copy back of Qc; bench_modify n = 8000, m = 3000, Q kept, double,
# 7 repeats, k = 64 and 8, the configurations alternating, twice; then
# what QRU_UPDATE_AUTO does at k = 128 and 256 (the benchmark's auto).
# Usage: bash dev6.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_nvidia-h100_issue18-timeline; R=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
rm -rf /tmp/exp; mkdir -p /tmp/exp
tar --exclude='./build*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp
(cd /tmp/exp && patch -p1 < $R/$D/md-exp3.diff >/dev/null) || echo PATCH FAILED
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF"
cmake -S /tmp/exp -B /tmp/be $C >$O/cmake-exp.log 2>&1
cmake --build /tmp/be -j16 --target bench_modify >$O/build-exp.log 2>&1 || tail -20 $O/build-exp.log
echo "built $(date +%T)"
bm() { # tag k [VAR=value...]
  local t=$1 k=$2; shift 2
  mkdir -p $O/exp/$t
  env "$@" timeout 60 /tmp/be/bench/bench_modify -p d -r 7 --no-tut -P 8000,3000,$k,0,1 -o $O/exp/$t >$O/exp/$t.log 2>&1
  echo "$t exit $?: $(grep -vhE '^%' $O/exp/$t/*tus_d.txt 2>/dev/null | head -1)"
}
for rep in 1 2; do
  bm k64-default-$rep 64 QRU_X=0
  bm k64-noq-$rep 64 QRU_EXP_NOQ=1
  bm k64-smt120-$rep 64 QRU_EXP_SMT=120
  bm k64-smt100-$rep 64 QRU_EXP_SMT=100
  bm k64-smt66-$rep 64 QRU_EXP_SMT=66
  bm k64-cl-$rep 64 QRU_EXP_CL=1
  bm k64-smt100-cl-$rep 64 QRU_EXP_SMT=100 QRU_EXP_CL=1
  bm k64-laoff-$rep 64 QRU_LOOKAHEAD=off
  bm k8-default-$rep 8 QRU_X=0
  bm k8-noq-$rep 8 QRU_EXP_NOQ=1
  bm k8-smt100-$rep 8 QRU_EXP_SMT=100
done
for k in 128 256; do
  bm k$k-auto $k QRU_BENCH_ALG=auto
done
echo "end $(date +%T)"
cd $O && tar czf ../dev6.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev6.tgz $O/
