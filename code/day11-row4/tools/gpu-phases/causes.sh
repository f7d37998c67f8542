# SPDX-License-Identifier: MIT
#
# Day 11's recording phase `causes` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): the
# measurements issue 43 asked for where the page said more than its
# evidence, recorded as diagnostics. why-mix.cu (beside this file):
#   <gpu>-d11-why-mix              RUNS (3) processes of `time`: the copy
#                                  ceiling against the read/write mix at 1
#                                  GiB per array, warm against cold by
#                                  footprint (12 to 96 MiB), a pointer
#                                  chase's latency in the L2 and in DRAM,
#                                  an empty kernel's cost to the GPU with
#                                  the launches queued ahead, copy4 from 16
#                                  MiB to 1 GiB, strided reads at two fetch
#                                  granularities and strided writes
#   <gpu>-d11-why-ncu-l2-one       vectorAdd at 64 Ki and 2 Mi, three
#   <gpu>-d11-why-ncu-l2-four      launches each behind the flush, under ncu
#                                  with one metric (one replay pass) and with
#                                  the four metrics of the `why` phase's sweep
#                                  (several passes, memory restored between
#                                  them): what launches two and three read
#                                  from DRAM, 2 processes of each
#   <gpu>-d11-why-ncu-l2-one-big-out   the same with the output in an
#   <gpu>-d11-why-ncu-l2-four-big-out  allocation of 256 MiB: is it the
#                                  restore of what the launch writes that
#                                  sends the next pass's reads to DRAM?
#   <gpu>-d11-why-ncu-passes-one   the replay passes ncu reports for the
#   <gpu>-d11-why-ncu-passes-four  first launch of each metric set
#   <gpu>-d11-why-ncu-stride       DRAM bytes of the strided reads (both
#                                  granularities) and writes
# Every ncu line names its clock control, cache control and replay mode, so
# each transcript's command line records them. About 45 s on the H200.
causes_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$causes_dir/why-mix" code/day11-row4/tools/gpu-phases/why-mix.cu
lines=code/day11-row4/tools/gpu-phases/ncu-lines.py
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-d11-why-mix" -- "$causes_dir/why-mix" time
done
as_found=(--clock-control none --cache-control none --replay-mode kernel)
one=dram__bytes_read.sum
four=lts__t_sector_hit_rate.pct,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for _ in 1 2; do
  cxx diagnostics "$gpu-d11-why-ncu-l2-one" -- python3 "$lines" index -- ncu "${as_found[@]}" \
    --kernel-name vectorAdd --metrics "$one" --print-units base --csv "$causes_dir/why-mix" profile-l2
  cxx diagnostics "$gpu-d11-why-ncu-l2-four" -- python3 "$lines" index -- ncu "${as_found[@]}" \
    --kernel-name vectorAdd --metrics "$four" --print-units base --csv "$causes_dir/why-mix" profile-l2
  cxx diagnostics "$gpu-d11-why-ncu-l2-one-big-out" -- python3 "$lines" index -- ncu "${as_found[@]}" \
    --kernel-name vectorAdd --metrics "$one" --print-units base --csv "$causes_dir/why-mix" profile-l2 big-out
  cxx diagnostics "$gpu-d11-why-ncu-l2-four-big-out" -- python3 "$lines" index -- ncu "${as_found[@]}" \
    --kernel-name vectorAdd --metrics "$four" --print-units base --csv "$causes_dir/why-mix" profile-l2 big-out
done
cxx diagnostics "$gpu-d11-why-ncu-passes-one" -- python3 "$lines" passes -- ncu "${as_found[@]}" \
  --kernel-name vectorAdd --launch-count 1 --metrics "$one" "$causes_dir/why-mix" profile-l2
cxx diagnostics "$gpu-d11-why-ncu-passes-four" -- python3 "$lines" passes -- ncu "${as_found[@]}" \
  --kernel-name vectorAdd --launch-count 1 --metrics "$four" "$causes_dir/why-mix" profile-l2
cxx diagnostics "$gpu-d11-why-ncu-stride" -- python3 "$lines" index -- ncu --clock-control none \
  --cache-control all --replay-mode kernel --kernel-name regex:'^stride(Read|Write)$' \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum --print-units base --csv \
  "$causes_dir/why-mix" profile-stride
