# issue 18: bench_modify set 0 again (double and float), its tables tarred
# (dev2.sh's did not come back: more than eight files)
set -u
O=$1; mkdir -p "$O/modify"
say() { echo "$*"; }
ARGS=(-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_TESTS=OFF -DQRU_BUILD_BENCH=ON)
source scripts/gpu-deps
cmake -S . -B build-m "${ARGS[@]}" >$O/build.log 2>&1 &&
  cmake --build build-m -j16 --target bench_modify >>$O/build.log 2>&1 || { tail -20 $O/build.log; exit 1; }
QRU_TEST_BACKEND=cuda timeout 240 build-m/bench/bench_modify -p sd -r 5 --no-sweeps -o $O/modify >$O/modify/bench_modify.log 2>&1
echo "bench_modify exit $?"
for f in $O/modify/*tus_[sd].txt; do grep -E "^ +0 " $f | sed "s|^|$(basename $f): |"; done
cd $O && tar czf modify.tar.gz modify && rm -rf modify build.log
