# The spread of S1 (double, R only) across runs: base17 and la2 of dev18
# (same machine, builds reused), alternating, 6 runs each, 2026-11-27.
# Usage: bash dev19.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
for i in 1 2 3 4 5 6; do
  for vn in base17 la2; do
    mkdir -p "$O/runs/$vn$i"
    timeout 60 /tmp/bld-$vn/bench/bench_add_rows -P 8000,3000,200,0,0 -p d -r 5 -o "$O/runs/$vn$i" >/dev/null 2>&1
    echo "$vn run $i: $(grep -vE '^%' "$O/runs/$vn$i"/*tus_d.txt 2>/dev/null | head -1 | awk '{print $8, $9}')"
  done
done | tee $O/spread.txt
for vn in base17 la2; do echo "$vn: $(grep "^$vn " $O/spread.txt | awk '{print $4}' | sort -n | tr '\n' ' ')"; done | tee -a $O/spread.txt
rm -rf $O/runs
