# SPDX-License-Identifier: MIT
#
# Day 9's recording phase `same-compiler` (sourced by ci/gpu-session.sh):
# the C++ program as built by ci/build-for-gpu.sh (the host compiler that
# built the Rust twin's copy of timing.cu) alternated with the Rust twin,
# RUNS of each: the CPU rows then time the same machine code in both
# programs. PIN_CORE=N also runs both under `taskset -c N`, one core for the
# whole process, to see whether where the scheduler puts the CPU loop
# matters.
pin=()
suffix=""
if [ -n "${PIN_CORE:-}" ]; then
  pin=(taskset -c "$PIN_CORE")
  suffix="-core$PIN_CORE"
fi
for i in $(seq "${RUNS:-5}"); do
  rust day09-timing "$gpu-cxx-hostbuilt$suffix" -- "${pin[@]}" .evidence-bin/day09-timing-cxx-hostbuilt
  rust day09-timing "$gpu-rust$suffix" -- "${pin[@]}" "$rust_bin"
done
