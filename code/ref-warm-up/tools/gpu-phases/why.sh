# SPDX-License-Identifier: MIT
#
# The warm-up lesson's recording phase `why` (sourced by ci/gpu-session.sh,
# which defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): the
# measurement behind the README's pool. why-pool.cu (beside this file) makes
# Part 5's run of small allocations through cudaMalloc and, in another
# process, through the driver's cuMemAlloc directly; RUNS (3) processes of
# each, alternated (<gpu>-wu-why-pool-runtime, <gpu>-wu-why-pool-driver).
# The checks named wu-why-* in tools/src/why.rs read them.
why_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$why_dir/why-pool" code/ref-warm-up/tools/gpu-phases/why-pool.cu
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-wu-why-pool-runtime" -- "$why_dir/why-pool" runtime
  cxx diagnostics "$gpu-wu-why-pool-driver" -- "$why_dir/why-pool" driver
done
