# The warp-chain panel's hand-offs on mbarriers instead of shared-memory
# flags (so that compute-sanitizer's racecheck can follow them): panel
# tests, racecheck / memcheck / synccheck of the chain kernel alone, the
# panel's time (bench_panel) and S1/S2 against the tree before (HEAD,
# base.tar.gz), and the variant with one arriving lane (PC_ARRIVE=1).
# Usage: bash dev1.sh OUT   (from the repository root)
set -u
O=$1; mkdir -p "$O"; D=results/2026-11-27_gpu_issue16-mbarrier
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
mkdir -p /tmp/base && tar xzf $D/base.tar.gz -C /tmp/base
mk() { # name, source, CUDA flags, targets
  cmake -S $2 -B /tmp/bld-$1 $C "-DCMAKE_CUDA_FLAGS=$3" >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j6 --target $4 >$O/build-$1.log 2>&1 || { echo "BUILD FAILED $1"; tail -30 $O/build-$1.log; }
}
mk new . "" "test_backend_ops bench_panel bench_add_rows bench_remove_cols" &
mk a1 . "-DPC_ARRIVE=1" "test_backend_ops bench_panel" &
mk base /tmp/base "" "bench_panel bench_add_rows bench_remove_cols" &
wait; echo "built $(date +%T)"
for v in new a1; do
  for c in panel_t0 panel_t1 panel_tp; do
    echo "$v $c: $(CK_RUN_CASE=$c timeout 60 /tmp/bld-$v/tests/test_backend_ops 2>&1 | tail -1)"
  done
done | tee $O/panel_tests.txt
for v in base new a1 base new; do
  echo "== $v"; timeout 60 /tmp/bld-$v/bench/bench_panel 2>&1 | grep -E "^ +[17] +(264|232) +(64|32) "
done | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for v in base new base new; do
  for s in $S; do
    IFS=: read -r name b pt <<<"$s"
    rm -rf $O/runs; mkdir -p "$O/runs"
    timeout 60 /tmp/bld-$v/bench/$b -P "$pt" -p d -r 5 -o "$O/runs" >/dev/null 2>&1
    echo "$v $name exit $?: $(grep -vhE '^%' $O/runs/*tus_d.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
rm -rf $O/runs
san() { # variant tool case
  CK_FORK=no QRU_TEST_QUICK=1 CK_RUN_CASE=$3 timeout 200 \
    compute-sanitizer --tool $2 --kernel-name kns=qru_panel_qr_chain --error-exitcode 99 \
    /tmp/bld-$1/tests/test_backend_ops >$O/san-$1-$2-$3.log 2>&1
  echo "$1 $2 $3: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Checks' $O/san-$1-$2-$3.log | tr '\n' ' ')"
}
( san new racecheck panel_t0 & san new racecheck panel_t1 & san new memcheck panel_t1 &
  san new synccheck panel_t0 & san a1 racecheck panel_t0 & wait ) | tee $O/sanitizers.txt
for f in $O/san-*.log; do [ $(stat -c %s $f) -gt 200000 ] && gzip $f; done
rm -f $O/cmake-*.log
cd $O && tar czf ../dev1.tgz . && cd - >/dev/null && rm -rf $O/* && mv $O/../dev1.tgz $O/
