# Look-ahead, second version ("la2", the working tree: the context's own
# stream at the highest priority, queue 1 at the lowest, cuSOLVER's handle
# left on queue 0) against dev17's "la" and 50bf09b ("base17"), S1 on the
# same machine (builds of dev17 reused when there); nsys's kernel trace of
# one S1 update of la2 if nsys is there; the synccheck reports' kernels.
# Usage: bash dev18.sh OUT
set -u
O=$1; mkdir -p "$O"
D=results/2026-11-27_nvidia-h200_lookahead
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
C="-DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON"
tree() { # tree NAME SOURCE(tar.gz or .) TARGETS
  rm -rf /tmp/src-$1; mkdir -p /tmp/src-$1
  if [ "$2" = . ]; then
    tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/src-$1
  else tar -xzf $2 -C /tmp/src-$1; fi
  cmake -S /tmp/src-$1 -B /tmp/bld-$1 $C >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j8 --target $3 >$O/build-$1.log 2>&1 || tail -20 $O/build-$1.log
}
[ -x /tmp/bld-base17/bench/bench_add_rows ] || tree base17 $D/base17.tar.gz bench_add_rows &
tree la2 . "bench_add_rows test_update_rows"
wait
ls /tmp/bld-la/bench/bench_add_rows >/dev/null 2>&1 || echo "no la build (dev17's machine gone)"
S="S1:bench_add_rows:8000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name bn pt <<<"$s"
  for v in base17:d la:d la2:d base17:d la2:d; do
    IFS=: read -r vn pr <<<"$v"
    [ -x /tmp/bld-$vn/bench/$bn ] || continue
    mkdir -p "$O/runs/$vn$pr/$name"
    timeout 90 /tmp/bld-$vn/bench/$bn -P "$pt" -p $pr -r 5 -o "$O/runs/$vn$pr/$name" >"$O/runs/$vn$pr/$name.log" 2>&1
    echo "$vn $pr $name exit $?: $(grep -vE '^%' "$O/runs/$vn$pr/$name"/*tus_$pr.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1.txt
echo "test_update_rows la2: $(timeout 200 /tmp/bld-la2/tests/test_update_rows 2>&1 | grep -E '^[0-9]+%|:F:' | head -3)" | tee $O/tests.txt
CK_FORK=no timeout 120 compute-sanitizer --tool synccheck /tmp/bld-la2/tests/test_update_rows >$O/san.log 2>&1
grep -E "in .*kernel|Barrier|ERROR SUMMARY" $O/san.log | sed 's/^ *//' | sort | uniq -c | sort -rn | head -8 > $O/synccheck-kernels.txt; rm -f $O/san.log
cat $O/synccheck-kernels.txt
if command -v nsys >/dev/null 2>&1; then
  cd /tmp && timeout 120 nsys profile -o /tmp/la2 --force-overwrite true /tmp/bld-la2/bench/bench_add_rows -P 8000,3000,200,0,0 -p d -r 1 -o /tmp/nsysb >/dev/null 2>&1
  timeout 120 nsys stats -q --report cuda_gpu_trace --format csv -o /tmp/la2tr /tmp/la2.nsys-rep >/dev/null 2>&1
  ls /tmp/la2tr* && python3 - /tmp/la2tr_cuda_gpu_trace.csv > $O/nsys-overlap.txt <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
k = [r for r in rows if 'qru_panel_qr_chain' in r.get('Name', '')]
print('chain launches', len(k))
# the timed update: the middle third of the chain launches; streams and overlap of the others with each chain launch
sel = k[len(k)//3: len(k)//3 + 47]
st = lambda r: int(r['Start (ns)']); du = lambda r: int(r['Duration (ns)'])
t0, t1 = st(sel[0]), st(sel[-1]) + du(sel[-1])
other = [r for r in rows if 'chain' not in r.get('Name', '') and t0 <= st(r) <= t1]
ov = 0
for c in sel:
    a, b = st(c), st(c) + du(c)
    for r in other:
        x, y = st(r), st(r) + du(r)
        ov += max(0, min(b, y) - max(a, x))
print('window us', (t1 - t0) / 1e3, 'chain us', sum(du(c) for c in sel) / 1e3, 'others us', sum(du(r) for r in other) / 1e3, 'others inside chain launches us', ov / 1e3)
print('streams of chain', sorted(set(r.get('Strm', r.get('Stream', '?')) for r in sel)), 'of others', sorted(set(r.get('Strm', r.get('Stream', '?')) for r in other)))
gaps = [st(sel[i+1]) - (st(sel[i]) + du(sel[i])) for i in range(len(sel)-1)]
gaps.sort(); print('gap between chain launches us: median', gaps[len(gaps)//2] / 1e3, 'max', gaps[-1] / 1e3)
PY
  cat $O/nsys-overlap.txt
else
  echo "no nsys"
fi
rm -rf $O/runs $O/cmake-*.log $O/build-*.log
