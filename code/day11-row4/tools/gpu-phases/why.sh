# SPDX-License-Identifier: MIT
#
# Day 11's recording phase `why` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): the
# measurements behind the page's explanations, recorded as diagnostics.
# why-row4.cu (beside this file) in RUNS (3) processes (<gpu>-d11-why):
# the flush's spin-kernel control, 1 to 8 elements per thread, the sweep
# and a read-only kernel replayed in CUDA graphs, copies over 1 GiB, and
# the SM and memory clocks after every row. Then under Nsight Compute, one
# process each, with ncu-lines.py printing each launch's metrics as
# `LABEL: NUMBER` lines after ncu's CSV:
#   <gpu>-d11-why-ncu-sweep       L2 hit rate and DRAM bytes per sweep size,
#                                 caches as the previous launch left them
#   <gpu>-d11-why-ncu-read        the same for the read-only kernel
#   <gpu>-d11-why-ncu-full        copy4, vectorAdd4, vectorAdd and a 1 GiB
#                                 copy4: kernel time and DRAM throughput
#   <gpu>-d11-why-ncu-first[-flush]  the first vectorAdd after the inputs'
#                                 copies, with and without a flush between
# The checks named d11-why-* in tools/src/why.rs read them.
why_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$why_dir/why-row4" code/day11-row4/tools/gpu-phases/why-row4.cu
lines=code/day11-row4/tools/gpu-phases/ncu-lines.py
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-d11-why" -- "$why_dir/why-row4" time
done
bytes=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
cxx diagnostics "$gpu-d11-why-ncu-sweep" -- python3 "$lines" grid -- ncu --clock-control none \
  --cache-control none --replay-mode kernel --kernel-name vectorAdd --metrics "lts__t_sector_hit_rate.pct,$bytes" \
  --print-units base --csv "$why_dir/why-row4" profile-sweep
cxx diagnostics "$gpu-d11-why-ncu-read" -- python3 "$lines" grid -- ncu --clock-control none \
  --cache-control none --replay-mode kernel --kernel-name readToFlush --metrics "lts__t_sector_hit_rate.pct,$bytes" \
  --print-units base --csv "$why_dir/why-row4" profile-read
cxx diagnostics "$gpu-d11-why-ncu-full" -- python3 "$lines" grid -- ncu --clock-control none \
  --cache-control all --replay-mode kernel --kernel-name regex:'^(copy4|vectorAdd4|vectorAdd)$' \
  --metrics "dram__throughput.avg.pct_of_peak_sustained_elapsed,$bytes" \
  --print-units base --csv "$why_dir/why-row4" profile-full
cxx diagnostics "$gpu-d11-why-ncu-first" -- python3 "$lines" index -- ncu --clock-control none \
  --cache-control none --replay-mode kernel --kernel-name vectorAdd --metrics "$bytes" \
  --print-units base --csv "$why_dir/why-row4" profile-first
cxx diagnostics "$gpu-d11-why-ncu-first-flush" -- python3 "$lines" index -- ncu --clock-control none \
  --cache-control none --replay-mode kernel --kernel-name vectorAdd --metrics "$bytes" \
  --print-units base --csv "$why_dir/why-row4" profile-first flush
