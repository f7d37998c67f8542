# SPDX-License-Identifier: MIT
#
# Day 10's recording phase `why` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): the
# measurements behind the page's explanations, recorded as diagnostics.
# why-blocks.cu (beside this file) times each block size one element per
# thread and as a persistent grid-stride grid (<gpu>-d10-why, RUNS (3)
# processes of 3 passes), then runs each configuration twice under Nsight
# Compute for achieved against theoretical occupancy
# (<gpu>-d10-why-ncu, one process; ../../../day11-row4/tools/gpu-phases/ncu-lines.py
# prints each launch's metrics as `LABEL: NUMBER` lines after ncu's CSV).
# The checks named d10-why-* in tools/src/why.rs read them.
why_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$why_dir/why-blocks" \
  code/day10-block-sizes/tools/gpu-phases/why-blocks.cu
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-d10-why" -- "$why_dir/why-blocks" time 3
done
cxx diagnostics "$gpu-d10-why-ncu" -- python3 code/day11-row4/tools/gpu-phases/ncu-lines.py block -- \
  ncu --clock-control none --cache-control all --replay-mode kernel --kernel-name regex:vectorAdd \
  --metrics sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,gpu__time_duration.sum \
  --print-units base --csv "$why_dir/why-blocks" profile
