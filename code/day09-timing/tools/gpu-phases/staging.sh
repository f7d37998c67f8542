# SPDX-License-Identifier: MIT
#
# Day 9's recording phase `staging` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): is row 5
# the bus, or the pageable staging path in front of it? round-trip-pinned.cu
# (beside this file) runs row 5's round trip from pageable and from pinned
# host buffers, RUNS (3) processes of 3 passes each, about 2 s a process on
# the H200. Its lines are no lesson's report, so they are recorded as
# diagnostics (evidence/diagnostics/*-<gpu>-round-trip-pinned.txt).
# Day 53 has a phase of the same name, so one session step runs both.
staging_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$staging_dir/round-trip-pinned" \
  code/day09-timing/tools/gpu-phases/round-trip-pinned.cu
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-round-trip-pinned" -- "$staging_dir/round-trip-pinned" 3
done
