# SPDX-License-Identifier: MIT
#
# Day 11's recording phase `ncu` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): vectorAdd
# under Nsight Compute, RUNS (5) processes. row4.cu's first 14 vectorAdd
# launches are all at full n (its check launch, then row 4's 3 warm-ups and
# 10 timed runs), so --launch-count 14 profiles those and no sweep size; the
# report package refuses a profiled launch whose grid is not full n's.
#
# The metrics: DRAM bytes read and written (claim d11-bytes-are-twelve: 12
# per element, within 3%) and the kernel's duration, for the achieved DRAM
# throughput. --print-units base prints bytes and ns, not scaled units.
# ncu's default cache control flushes the caches before each profiled
# launch, so every one starts cold, as the cold-L2 row does.
#
# The runs are named <gpu>-cxx-ncu and land in the lesson's own folder; its
# report package parses the program's report with ncu's CSV after it, and
# every timing claim is marked not applicable to them (the profiler is in
# the way of the profiled launches' timings).
#
# The second group, <gpu>-cxx-ncu-cache-control-none, leaves the caches as
# the previous launch left them (--cache-control none), as they are between
# row 4's back-to-back launches: with ncu's flush the output lines still in
# the L2 when a launch ends are written to DRAM after its range, and without
# it, inside the next launch's. The two groups' write bytes tell which.
metrics=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for _ in $(seq "${RUNS:-5}"); do
  cxx day11-row4 "$gpu-cxx-ncu" -- ncu --clock-control none --cache-control all --replay-mode kernel \
    --kernel-name vectorAdd --launch-count 14 \
    --metrics "$metrics" --print-units base --csv "$cxx_bin"
  cxx day11-row4 "$gpu-cxx-ncu-cache-control-none" -- ncu --clock-control none --cache-control none \
    --replay-mode kernel \
    --kernel-name vectorAdd --launch-count 14 --metrics "$metrics" --print-units base --csv "$cxx_bin"
done
