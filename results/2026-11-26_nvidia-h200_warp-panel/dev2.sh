# Where the warp-chain panel's time goes (2026-11-26): bench_panel with
# variants built from copies of the tree (B columns a warp x teams; the
# z's of T left out, timing only), and ncu of the default kernel with
# -lineinfo.  Usage: bash dev2.sh OUT
set -u
O=$1; mkdir -p "$O"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
source scripts/gpu-deps >/dev/null 2>&1
export QRU_TEST_BACKEND=cuda
mk() { # name, extra CUDA flags, sed expression on the kernel file (or "")
  rm -rf /tmp/exp-$1; mkdir -p /tmp/exp-$1; tar --exclude='./build-*' --exclude=./results --exclude=./.deps --exclude=./.git -cf - . | tar -xf - -C /tmp/exp-$1
  [ -n "$3" ] && sed -i "$3" /tmp/exp-$1/kernels/qru_panel.cl
  cmake -S /tmp/exp-$1 -B /tmp/bld-$1 -DCMAKE_BUILD_TYPE=Release -DQRU_WITH_CUDA=ON -DQRU_WITH_OPENCL=OFF -DQRU_BUILD_BENCH=ON -DQRU_BUILD_TESTS=OFF "-DCMAKE_CUDA_FLAGS=-lineinfo $2" >$O/cmake-$1.log 2>&1
  cmake --build /tmp/bld-$1 -j4 --target bench_panel >$O/build-$1.log 2>&1 || echo "BUILD FAILED $1"
}
mk b8 "" "" &
mk b4 "-DQRU_PW_B=4 -DQRU_PW_TEAMS=16" "" &
mk noz "" 's/if (s >= 2 && w < s - 1) {/if (0) {/' &
wait
for v in b8 b4 noz b8; do
  echo "== $v"; timeout 60 /tmp/bld-$v/bench/bench_panel 2>&1 | grep -E "^  [17] +264 +64|^  [17] +264 +32"
done | tee $O/variants.txt
timeout 300 ncu --kernel-name regex:qru_panel_qr_warp --launch-skip 20 --launch-count 1 \
  --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section InstructionStats \
  --section LaunchStats --section Occupancy --section SourceCounters --print-details all \
  /tmp/bld-b8/bench/bench_panel > $O/ncu-warp.txt 2>&1
grep -E "Duration|Executed Ipc|Warp Cycles Per Issued|Stall|Registers Per|Local|Instructions" $O/ncu-warp.txt | head -40
# per-line stall samples (source view) of the same launch
timeout 200 ncu --kernel-name regex:qru_panel_qr_warp --launch-skip 20 --launch-count 1 \
  --section SourceCounters --section WarpStateStats --import-source yes -o $O/warp /tmp/bld-b8/bench/bench_panel >/dev/null 2>&1
timeout 100 ncu -i $O/warp.ncu-rep --page source --csv --print-source cuda > $O/warp-source.csv 2>&1
ls -la $O
