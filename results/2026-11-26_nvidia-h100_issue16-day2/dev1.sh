set -x
R=results/2026-11-26_nvidia-h100_issue16-day2
OUT=$OUT/compare bash scripts/gpu-compare $R/cmds-chol
for s in "S6 bench_remove_rows -P 8000,1000,200,0,1" "S5 bench_remove_rows -P 12000,6000,100,0,1" "S4 bench_add_cols -P 8000,3000,200,0,1" "S1 bench_add_rows -P 8000,3000,200,0,0"; do
  set -- $s; n=$1; shift; prog=$1; shift
  OUT=$OUT/ncu timeout 200 bash scripts/gpu-kernel-times build-cmp-new $n $prog -p d --no-tut -r 1 "$@" | head -30
done
