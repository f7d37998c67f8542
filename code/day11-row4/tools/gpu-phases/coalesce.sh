# SPDX-License-Identifier: MIT
#
# Day 11's recording phase `coalesce` (sourced by ci/gpu-session.sh, which
# defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): the offset
# and stride experiment on coalescing. why-coalesce.cu (beside this file)
# copies 16 Mi floats at offsets 0 to 32 and strides 1 to 32; RUNS (3)
# processes (<gpu>-d11-why-coalesce). The check d11-why-coalescing in
# tools/src/why.rs reads them.
why_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$why_dir/why-coalesce" code/day11-row4/tools/gpu-phases/why-coalesce.cu
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-d11-why-coalesce" -- "$why_dir/why-coalesce"
done
