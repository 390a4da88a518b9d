# The GP append of one point (bench_chol_gpu --gp, n = 4096, double):
# HEAD (06e0a32, base06.tar.gz: cuBLAS syrk for the 1 x 1 block S2 =
# C2 - S1'S1) against the working tree (the CUDA syrk op takes a 1 x 1
# GEMM for n = 1), two runs each, alternating; and backend_ops' basic case
# (syrk with n = 1 and 20) on the working tree.  Usage: bash dev5.sh OUT
set -u
O=$1; mkdir -p "$O"
D=$(dirname "$0")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ARGS=(); say() { :; }; source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=ON"
rm -rf /tmp/vb && mkdir -p /tmp/vb && tar xzf $D/base06.tar.gz -C /tmp/vb
b() { cmake -S $1 -B $2 $C "${ARGS[@]}" >$2.log 2>&1 && cmake --build $2 -j8 --target $3 >>$2.log 2>&1 || echo "build failed $1"; }
b /tmp/vb build-gb bench_chol_gpu & b . build-gn "bench_chol_gpu test_backend_ops" & wait
( cd build-gn && QRU_TEST_BACKEND=cuda CK_RUN_CASE=basic timeout 60 ./tests/test_backend_ops 2>&1 | tail -2 )
for rep in 1 2; do for v in gb gn; do
  timeout 60 build-$v/bench/bench_chol_gpu --gp -r 9 -o $O/$v-$rep > $O/$v-$rep.log 2>&1
  echo "$v $rep exit $?: $(grep -E '^ *4096' $O/$v-$rep.log | head -1)"
done; done
rm -rf $O/g*-*
