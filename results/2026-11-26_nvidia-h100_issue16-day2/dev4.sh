# S4: every kernel, base vs new (auto); builds first (a fresh machine)
R=results/2026-11-26_nvidia-h100_issue16-day2
OUT=$OUT/compare bash scripts/gpu-compare $R/cmds-s4 > /dev/null 2>&1
grep -E "^----|update .* s, refactor" $OUT/compare/compare.log
rm -rf $OUT/compare/new $OUT/compare/base $OUT/compare/*.log
for side in base new; do
  OUT=$OUT/ncu timeout 230 bash scripts/gpu-kernel-times build-cmp-$side S4all-$side bench_add_cols -p d --no-tut -r 1 -P 8000,3000,200,0,1 | head -14
done
rm -rf $OUT/ncu/*.csv $OUT/ncu/*-bench
