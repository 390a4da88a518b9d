# The modification with look-ahead (3a87c27: the windows' R updates and
# every block reflector on Q and d on the second queue, on copies) against
# the tree before it (279f08e, base.tar.gz, deleted after), in the same
# call: bench_modify set 0 (double) base / new / new with QRU_LOOKAHEAD=off,
# twice, and new in float; then the whole CUDA suite of the new tree.
# Usage: bash dev2.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_nvidia-h100_issue18-timeline; R=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
mkdir -p /tmp/base && tar xzf $D/base.tar.gz -C /tmp/base
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
( cmake -S /tmp/base -B /tmp/bb $C -DQRU_BUILD_TESTS=OFF >$O/cmake-base.log 2>&1
  cmake --build /tmp/bb -j5 --target bench_modify >$O/build-base.log 2>&1 || tail -20 $O/build-base.log ) &
cmake -S . -B /tmp/bn $C >$O/cmake-new.log 2>&1
cmake --build /tmp/bn -j11 >$O/build-new.log 2>&1 || tail -30 $O/build-new.log
wait
echo "built $(date +%T)"
bm() { # tag build precision [VAR=value]
  local t=$1 bd=$2 pr=$3; shift 3
  mkdir -p $O/modify/$t
  env "$@" timeout 100 $bd/bench/bench_modify -p $pr -r 7 --no-sweeps -o $O/modify/$t >$O/modify/$t.log 2>&1
  echo "== $t (exit $?)"; grep -vhE '^%' $O/modify/$t/*tus_*.txt 2>/dev/null | head -3
}
for rep in 1 2; do
  bm base$rep /tmp/bb d
  bm new$rep /tmp/bn d
  bm new-la-off$rep /tmp/bn d QRU_LOOKAHEAD=off
done
bm new-float /tmp/bn s
bm base-float /tmp/bb s
echo "bench done $(date +%T)"
cd /tmp/bn && QRU_TEST_BACKEND=cuda timeout 300 ctest -L cuda -j3 --output-on-failure >$O/ctest-cuda.log 2>&1
echo "ctest exit $? $(date +%T)"; cd $R
grep -hE "tests passed|tests failed|\*\*\*Failed|Timeout" $O/ctest-cuda.log | head -10
cd $O && tar czf ../dev2.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev2.tgz $O/
