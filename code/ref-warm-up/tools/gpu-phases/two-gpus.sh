# SPDX-License-Identifier: MIT
#
# The warm-up lesson's recording phase `two-gpus` (sourced by
# ci/gpu-session.sh, which defines record, cxx, rust, $cxx_bin, $rust_bin,
# $gpu and $ev): the first call with every GPU of the machine visible, and
# with CUDA_VISIBLE_DEVICES=0, RUNS (5) of each program each way, the order
# rotated every round so neither way always runs first. Meant for a machine
# with two or more GPUs; the names carry the machine's GPU count
# (h200-x2-cxx-all, h200-x2-cxx-one, ...), and each report says how many
# GPUs its process saw. The claim wu-gpus-first-call-per-gpu compares the
# two groups.
gpus=$(nvidia-smi -L | wc -l)
if [ "$gpus" -lt 2 ]; then
  echo "two-gpus: this machine has $gpus GPU(s); the 'all' runs see only that many" >&2
fi
for i in $(seq "${RUNS:-5}"); do
  if [ $((i % 2)) -eq 1 ]; then order=(all one); else order=(one all); fi
  for way in "${order[@]}"; do
    limit=()
    [ "$way" = one ] && limit=(CUDA_VISIBLE_DEVICES=0)
    cxx ref-warm-up "$gpu-x$gpus-cxx-$way" "${limit[@]}" -- "$cxx_bin"
    rust ref-warm-up "$gpu-x$gpus-rust-$way" "${limit[@]}" -- "$rust_bin"
  done
done
