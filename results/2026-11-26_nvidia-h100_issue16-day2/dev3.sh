# S4 regressed (31.6 -> 41.0 ms) with the many-block panel: which kernel?
R=results/2026-11-26_nvidia-h100_issue16-day2
OUT=$OUT/compare bash scripts/gpu-compare $R/cmds-s4 > /dev/null 2>&1
grep -E "^----|update .* s, refactor" $OUT/compare/compare.log
rm -rf $OUT/compare/new $OUT/compare/base
export QRU_NCU_KERNELS='panel|accum|sweeps|xmma|gemm|trmm|geqr|larft|cutlass'
for side in base new; do
  OUT=$OUT/ncu timeout 200 bash scripts/gpu-kernel-times build-cmp-$side S4-$side bench_add_cols -p d --no-tut -r 1 -P 8000,3000,200,0,1 | head -16
done
