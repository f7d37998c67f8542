# SPDX-License-Identifier: MIT
#
# Day 9's recording phase `control` (sourced by ci/gpu-session.sh): the C++
# program against a byte-identical copy of itself (an A/A control: what the
# machine alone does to two processes running the same code) and against
# the Rust twin, RUNS rounds of the three, the order rotated each round.
copy=$(mktemp -d)/timing
cp "$cxx_bin" "$copy"
names=("$gpu-cxx" "$gpu-cxx-copy" "$gpu-rust")
for i in $(seq "${RUNS:-5}"); do
  for k in 0 1 2; do
    name=${names[$(((i + k) % 3))]}
    case $name in
    "$gpu-cxx") cxx day09-timing "$name" -- "$cxx_bin" ;;
    "$gpu-cxx-copy") cxx day09-timing "$name" -- "$copy" ;;
    "$gpu-rust") rust day09-timing "$name" -- "$rust_bin" ;;
    esac
  done
done
