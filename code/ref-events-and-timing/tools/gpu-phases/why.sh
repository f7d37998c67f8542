# SPDX-License-Identifier: MIT
#
# The events lesson's recording phase `why` (sourced by ci/gpu-session.sh,
# which defines record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev): the
# measurement behind Part 4's chain. why-chain.cu (beside this file) times
# the chain as Part 4 launches it, the host's launch calls alone, and the
# same chain replayed as a CUDA graph, and Part 4's pair taken apart (the
# record call alone, the stream wait alone, for each kind of event); RUNS
# (3) processes
# (<gpu>-ev-why-chain). The checks named ev-why-* in tools/src/why.rs read
# them.
why_dir=$(mktemp -d)
nvcc -std=c++17 -O3 -arch=native -o "$why_dir/why-chain" \
  code/ref-events-and-timing/tools/gpu-phases/why-chain.cu
for _ in $(seq "${RUNS:-3}"); do
  cxx diagnostics "$gpu-ev-why-chain" -- "$why_dir/why-chain"
done
