# SPDX-License-Identifier: MIT
#
# Day 53's recording phase `staging` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): is the
# pageable copies' drop from 64 MiB up the CPU's caches? pageable-rotated.cu
# (beside this file) times Part 1's copies from one buffer, as the lesson
# does, and rotated over a 2 GiB pool, from pageable and from pinned memory,
# RUNS (3) processes of 2 passes each, about 10 s a process on the H200. Its
# lines are no lesson's report, so they are recorded as diagnostics
# (evidence/diagnostics/*-<gpu>-pageable-rotated.txt). Day 9 has a phase of
# the same name, so one session step runs both.
staging_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$staging_dir/pageable-rotated" \
  code/day53-pinned/tools/gpu-phases/pageable-rotated.cu
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-pageable-rotated" -- "$staging_dir/pageable-rotated" 2
done
