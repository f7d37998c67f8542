# SPDX-License-Identifier: MIT
#
# Day 10's recording phase `dispatch` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): at 32 to
# 128 threads per block vectorAdd's time grows with the number of blocks,
# whatever the occupancy. empty-blocks.cu (beside this file) runs the same
# grids with an empty kernel, RUNS (3) processes of 3 passes each, a second
# or two a process on the H200. Its lines are no lesson's report, so they
# are recorded as diagnostics (evidence/diagnostics/*-<gpu>-empty-blocks.txt).
dispatch_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$dispatch_dir/empty-blocks" \
  code/day10-block-sizes/tools/gpu-phases/empty-blocks.cu
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-empty-blocks" -- "$dispatch_dir/empty-blocks" 3
done
