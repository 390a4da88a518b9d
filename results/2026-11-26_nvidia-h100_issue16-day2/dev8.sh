# where a column step of the register panel kernel (264 x 64) goes: ncu
R=results/2026-11-26_nvidia-h100_issue16-day2
BASE=none QRU_CMAKE_ARGS="-DCMAKE_CUDA_FLAGS=-lineinfo" OUT=$OUT/cmp bash scripts/gpu-compare $R/cmds-panel > /dev/null 2>&1
grep -A40 "^---- new" $OUT/cmp/compare.log | head -40
QRU_TEST_BACKEND=cuda timeout 300 ncu --kernel-name regex:qru_panel_qr_reg --launch-skip 20 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats \
  --section LaunchStats --section Occupancy --section SourceCounters --print-details all \
  build-cmp-new/bench/bench_panel > $OUT/ncu-reg.txt 2>&1
grep -E "Duration|Executed Ipc|Warp Cycles Per Issued|Stall|Registers Per|Local|Achieved Occ|Instructions" $OUT/ncu-reg.txt | head -60
rm -rf $OUT/cmp/new
