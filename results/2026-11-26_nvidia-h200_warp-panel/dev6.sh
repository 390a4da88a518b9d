# The warp-chain panel with R staged in shared memory and sleeping polls
# (2026-11-26): panel tests, bench_panel for poll intervals 0 / 32 / 200 ns
# and the timing-only variant without the helpers' other columns; ncu of
# the default (stall reasons by source line); S1/S2 against
# QRU_PANEL_KERNEL=reg.  Usage: bash dev6.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
mk() { # name, CUDA flags, sed expression on cuda/cuda_panel_chain.cuh (or ""), targets
  rm -rf /tmp/exp-$1; mkdir -p /tmp/exp-$1; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-$1
  [ -n "$3" ] && sed -i "$3" /tmp/exp-$1/cuda/cuda_panel_chain.cuh
  cmake -S /tmp/exp-$1 -B /tmp/bld-$1 -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON "-DCMAKE_CUDA_FLAGS=$2" >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j3 --target $4 >$O/build-$1.log 2>&1 || echo "BUILD FAILED $1"
}
mk p32 "-lineinfo" "" "test_backend_ops test_nonfinite bench_panel bench_add_rows bench_remove_cols" &
mk p0 "-DPC_POLL_NS=0" "" "bench_panel" &
mk p200 "-DPC_POLL_NS=200" "" "bench_panel" &
mk norest "" 's|if (t != (T)0) { /\* the rest \*/|if (0) {|' bench_panel &
wait
for c in panel_t0 panel_t1; do
  echo "p32 $c: $(CK_RUN_CASE=$c timeout 120 /tmp/bld-p32/tests/test_backend_ops 2>&1 | tail -1)"
done | tee $O/panel_tests.txt
for v in p32 p0 p200 norest p32; do
  echo "== $v"; timeout 60 /tmp/bld-$v/bench/bench_panel 2>&1 | grep -E "^  [17] +(264|232) +(64|32)"
done | tee $O/variants.txt
S="S1:bench_add_rows:8000,3000,200,0,0 S2:bench_remove_cols:6000,3000,200,0,0"
for s in $S; do
  IFS=: read -r name b pt <<<"$s"
  for pk in reg auto reg auto; do
    mkdir -p "$O/runs/$pk/$name"
    QRU_PANEL_KERNEL=$pk timeout 90 /tmp/bld-p32/bench/$b -P "$pt" -p d -r 5 -o "$O/runs/$pk/$name" >"$O/runs/$pk/$name.log" 2>&1
    echo "$pk $name exit $?: $(grep -vE '^%' "$O/runs/$pk/$name"/*tus_d.txt 2>/dev/null | head -1)"
  done
done | tee $O/s1s2.txt
timeout 200 /tmp/bld-p32/tests/test_nonfinite 2>&1 | tail -1 | tee $O/nonfinite.txt
timeout 150 ncu --kernel-name regex:qru_panel_qr_chain --launch-skip 20 --launch-count 1 \
  --section WarpStateStats --section SourceCounters --import-source yes -o /tmp/chain /tmp/bld-p32/bench/bench_panel >/dev/null 2>&1
timeout 100 ncu -i /tmp/chain.ncu-rep --page source --csv --print-source cuda > /tmp/chain-src.csv 2>&1
timeout 100 ncu -i /tmp/chain.ncu-rep --page details > $O/ncu-details.txt 2>&1
python3 - /tmp/chain-src.csv > $O/ncu-lines.txt <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors='replace')))
hdr = None
for i, r in enumerate(rows):
    if 'Source' in r and any('Sampling' in h for h in r):
        hdr = i; break
if hdr is None:
    print('no header'); print('\n'.join(','.join(r)[:200] for r in rows[:20])); sys.exit()
h = rows[hdr]; print(h)
si = h.index('Source'); cols = [k for k, x in enumerate(h) if 'Sampling' in x]
data = []
for r in rows[hdr+1:]:
    if len(r) <= max(cols): continue
    try: v = [float(r[k] or 0) for k in cols]
    except ValueError: continue
    data.append((v[0], r[0] if r[0] else '', r[si][:110], v))
data.sort(key=lambda x: -x[0])
for d in data[:45]: print(d[1], d[0], d[3], d[2])
PY
rm -rf $O/runs $O/*.log
