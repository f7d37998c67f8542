# SPDX-License-Identifier: MIT
#
# Day 9's recording phase `thp` (sourced by ci/gpu-session.sh): how each
# program's host buffers are backed (thp-probe.sh beside this file).
probe=code/day09-timing/tools/gpu-phases/thp-probe.sh
cxx diagnostics "$gpu-cxx-thp" -- "$probe" "$cxx_bin" 4
rust diagnostics "$gpu-rust-thp" -- "$probe" "$rust_bin" 4
