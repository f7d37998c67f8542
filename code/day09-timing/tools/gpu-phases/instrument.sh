# SPDX-License-Identifier: MIT
#
# Day 9's recording phase `instrument` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): the
# measurement instrument's proof. The Rust twin with --stats --json in 5
# separate processes, ncu's gpu__time_duration for the C++ program's
# full-size vectorAdd launches, and the same kernel timed by
# cupyx.profiler.benchmark and triton's do_bench.
mkdir -p "$ev/instrument-json"
for i in 1 2 3 4 5; do
  rust day09-timing "$gpu-rust-stats" -- "$rust_bin" --stats --json "$ev/instrument-json/stats-$i.json"
done
# The first 15 vectorAdd launches of timing.cu are all at full n: row 3,
# row 2, and row 4's 3 warm-ups and 10 timed runs.
cxx instrument "$gpu-ncu" -- ncu --clock-control none --cache-control all --replay-mode kernel --kernel-name vectorAdd --launch-count 15 \
  --metrics gpu__time_duration.sum --csv "$cxx_bin"
EVIDENCE_RUNTIME="CuPy's and PyTorch's own" record instrument "$gpu-peers" -- \
  python3 code/day09-timing/tools/gpu-phases/peer_timers.py
