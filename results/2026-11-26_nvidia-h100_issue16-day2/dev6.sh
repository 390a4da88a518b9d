R=results/2026-11-26_nvidia-h100_issue16-day2
OUT=$OUT/compare QRU_COMPARE_TIMEOUT=280 bash scripts/gpu-compare $R/cmds-chol2 > /dev/null 2>&1
awk '/---- (base|new): bench_chol_gpu/{p=1} p' $OUT/compare/compare.log | grep -E "^----|^ +[0-9]+ +[012] |^ +[0-9]+ +[0-9]+ +[0-9.e-]+ +[0-9.e-]+ +[0-9.e-]+ +[0-9.e-]+ +[0-9.e-]+ "
cd $OUT && tar czf compare.tgz compare/compare.log compare/new compare/base && rm -rf compare
