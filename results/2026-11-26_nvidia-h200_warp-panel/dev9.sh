# Where the chain warp's step goes (2026-11-26): a copy of the tree with
# clock64() marks in the chain loop (printed once, for a 264 x 64 panel),
# and ncu's per-instruction stall sampling of the kernel (SASS view).
# Usage: bash dev9.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
rm -rf /tmp/exp-clk; mkdir -p /tmp/exp-clk; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-clk
python3 - /tmp/exp-clk/cuda/cuda_panel_chain.cuh <<'PY'
import sys
p = sys.argv[1]; s = open(p).read()
def rep(a, b):
    global s
    assert a in s, a
    s = s.replace(a, b, 1)
rep("template <typename T>\n__global__ void __launch_bounds__(PC_THREADS, 1)",
    "__device__ unsigned pc_dbg_count;\ntemplate <typename T>\n__global__ void __launch_bounds__(PC_THREADS, 1)")
rep("        for (int j = 0;;) {", "        long long a01 = 0, a12 = 0, a23 = 0, tw = 0;\n        for (int j = 0;;) { long long q0 = clock64();")
rep("            pc_wait(&hand[j], 1);", "            long long qw = clock64(); pc_wait(&hand[j], 1); long long q1 = clock64(); a01 += q1 - q0; tw += q1 - qw;")
rep("            vj = QRU_TEAM_SUM(vj);", "            vj = QRU_TEAM_SUM(vj); long long q2 = clock64(); a12 += q2 - q1;")
rep("                t = qru_preg_house<T>(m, j, x, vo, tv, lane);\n            }", "                t = qru_preg_house<T>(m, j, x, vo, tv, lane);\n            }\n            a23 += clock64() - q2;")
rep("    } else { /* a helper", "        if (lane == 0 && nb == 64 && m == 264) { unsigned k = atomicAdd(&pc_dbg_count, 1u); if (k == 30 || k == 31) printf(\"chain cycles a step (%d bytes T): top to hand-off %lld (of it waiting %lld), loads + sums %lld, the rest %lld\\n\", (int)sizeof(T), a01 / (nb - 1), tw / (nb - 1), a12 / (nb - 1), a23 / (nb - 1)); }\n    } else { /* a helper")
open(p, 'w').write(s)
PY
cmake -S /tmp/exp-clk -B /tmp/bld-clk -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF >$O/cmake-clk.log 2>&1
cmake --build /tmp/bld-clk -j8 --target bench_panel >$O/build-clk.log 2>&1 || tail -20 $O/build-clk.log &
cmake -S . -B build-ln -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF -DCMAKE_CUDA_FLAGS=-lineinfo >$O/cmake.log 2>&1
cmake --build build-ln -j8 --target bench_panel >$O/build.log 2>&1 || tail -20 $O/build.log
wait
timeout 60 /tmp/bld-clk/bench/bench_panel 2>&1 | grep -E "chain cycles|^  1 +264 +64" | tee $O/clock.txt
nvidia-smi --query-gpu=clocks.sm,clocks.max.sm --format=csv | tee -a $O/clock.txt
timeout 150 ncu --kernel-name regex:qru_panel_qr_chain --launch-skip 20 --launch-count 1 \
  --section WarpStateStats --section SourceCounters --import-source yes -o /tmp/chain build-ln/bench/bench_panel >/dev/null 2>&1
timeout 100 ncu -i /tmp/chain.ncu-rep --page source --csv --print-source sass > /tmp/chain-sass.csv 2>&1
head -c 3000 /tmp/chain-sass.csv > $O/sass-head.txt
python3 - /tmp/chain-sass.csv > $O/sass-top.txt <<'PY'
import csv, sys, collections
rows = list(csv.reader(open(sys.argv[1], errors='replace')))
hdr = next(i for i, r in enumerate(rows) if any('Sampling' in h for h in r))
h = rows[hdr]; print(h)
src = next(k for k, x in enumerate(h) if x in ('Source', 'Sass', 'SASS'))
samp = [k for k, x in enumerate(h) if 'Sampling' in x]
tot = collections.Counter(); data = []
for r in rows[hdr + 1:]:
    if len(r) <= max(samp): continue
    try: v = [float(r[k] or 0) for k in samp]
    except ValueError: continue
    op = r[src].split()[0] if r[src].split() else ''
    if op.startswith('@'): op = r[src].split()[1] if len(r[src].split()) > 1 else op
    tot[op.split('.')[0]] += v[0]; data.append((v[0], r[0], r[src][:90]))
print('samples by opcode:', tot.most_common(25))
data.sort(key=lambda x: -x[0])
for d in data[:40]: print(d)
PY
