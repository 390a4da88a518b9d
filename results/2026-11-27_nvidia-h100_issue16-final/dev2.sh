# The rank-k modification (bench_modify set 0: n 8000, m 3000, k = 1, 8,
# 64, Q kept, double) on three builds in one run: HEAD (ebd189c, base.tar.gz),
# the working tree (look-ahead in phases 1 and 2), and the working tree
# without the commit's block reflectors on Q (timing only: the result is
# wrong) to measure the commit's share.  Usage: bash dev2.sh OUT
set -u
O=$1; mkdir -p "$O"
D=$(dirname "$0")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF"
rm -rf /tmp/vb /tmp/vn && mkdir -p /tmp/vb /tmp/vn
tar xzf $D/base.tar.gz -C /tmp/vb
cp -r CMakeLists.txt cmake src include cuda opencl kernels bench cli /tmp/vn/ 2>/dev/null
sed -i '/md_apply(ctx, dt, &p, &w, ws, 0, f->Q, ldq, n));/d' /tmp/vn/src/update/modify.c
grep -c "md_apply(ctx, dt, &p, &w, ws, 0" /tmp/vn/src/update/modify.c
b() { cmake -S $1 -B $2 $C >$2.log 2>&1 && cmake --build $2 -j8 --target bench_modify >>$2.log 2>&1 || echo "build failed $1"; }
b /tmp/vb build-vb & b . build-vl & b /tmp/vn build-vn & wait
for rep in 1 2; do
for v in vb vl vn; do
  mkdir -p $O/$v-$rep
  timeout 100 build-$v/bench/bench_modify -p d -r 5 --no-sweeps -o $O/$v-$rep >$O/$v-$rep.log 2>&1
  echo "$v run $rep exit $?"; grep -vE '^%' $O/$v-$rep/*tus_d.txt | awk '{print "   k="$4, "t="$8, "ref="$9, "orgqr="$10, "sp="$11, "spq="$12, "calls="$(NF-1), "err="$NF}'
done; done
rm -rf $O/v*-*
