# The tiles of step 2 loaded further ahead for one right-hand side
# (QRU_TRSV_PF_R1 tiles ahead, with the fold): base = dc7f99c
# (base.tar.gz: no fold, one ahead) against the working tree compiled with
# 2 and 3 ahead; bench_trsv_gpu twice each, alternating, and the GP
# append; backend_ops' basic case (test_trsm_few) and its memcheck on the
# 3-ahead build.  Usage: bash dev2.sh OUT
set -u
O=$1; mkdir -p "$O"
D=$(dirname "$0"); T0=$(date +%s)
el() { echo "[$(( $(date +%s) - T0 )) s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ARGS=(); say() { :; }; source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=ON"
rm -rf /tmp/vb && mkdir -p /tmp/vb && tar xzf $D/base.tar.gz -C /tmp/vb
b() { cmake -S $1 -B $2 $C "${ARGS[@]}" ${5:+"$5"} >$2.log 2>&1 && cmake --build $2 -j${4:-4} --target $3 >>$2.log 2>&1 || { echo "build failed $1 $2"; grep -E "error" $2.log | head -5; }; }
b /tmp/vb /tmp/gb "bench_trsv_gpu bench_chol_gpu" 5 &
b . /tmp/g2 "bench_trsv_gpu bench_chol_gpu" 5 "-DCMAKE_CUDA_FLAGS=-DQRU_TRSV_PF_R1=2" &
b . /tmp/g3 "bench_trsv_gpu bench_chol_gpu test_backend_ops" 6 & wait
el built
( cd /tmp/g3 && QRU_TEST_BACKEND=cuda CK_RUN_CASE=basic timeout 120 ./tests/test_backend_ops > $O/backend_ops-basic.log 2>&1; echo "backend_ops basic (cuda, 3 ahead) exit $?: $(tail -1 $O/backend_ops-basic.log)" )
for rep in 1 2; do for v in gb g2 g3; do
  timeout 90 /tmp/$v/bench/bench_trsv_gpu -r 21 > $O/trsv-$v-$rep.txt 2>&1; el "trsv $v $rep: $?"
done; done
for rep in 1 2; do for v in gb g3; do
  timeout 60 /tmp/$v/bench/bench_chol_gpu --gp -r 15 -o $O/gp-$v-$rep > $O/gp-$v-$rep.log 2>&1
  echo "gp $v $rep exit $?: $(grep -E '^ *4096' $O/gp-$v-$rep.log | head -1)"
done; done
rm -rf $O/gp-g?-?
LEFT=$(( 560 - ($(date +%s) - T0) ))
( cd /tmp/g3 && QRU_TEST_BACKEND=cuda CK_FORK=no CK_RUN_CASE=basic timeout $LEFT compute-sanitizer --tool memcheck \
    --kernel-name kns=qru_trsv_sf --error-exitcode 99 ./tests/test_backend_ops > $O/memcheck-basic.log 2>&1
  echo "memcheck basic: exit $?: $(grep -E 'SUMMARY|Checks' $O/memcheck-basic.log | tr '\n' ' ')" )
