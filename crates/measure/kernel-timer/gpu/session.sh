#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# kernel-timer on kernels nobody here wrote for the instrument (kernels/set.cu),
# beside Nsight Compute, in one session on the GPU machine (issue 44, item 5).
# Run from the repository root, with .evidence-bin/ from ci/build-for-gpu.sh:
#
#   EVIDENCE_COMMIT=<commit> crates/measure/kernel-timer/gpu/session.sh OUT
#
# Steps (STEPS, default all: times ncu spread cupti aa ab example softmax long long-suite floor), each logged in OUT/steps.txt
# with its status (the log of its recordings beside it, in the JSON tarball):
#   times  kernel-timer on each kernel of the set from set.cu, in the mode it
#          recommends, --json every sample
#   ncu    each kernel launched plainly (--launch-only NCU_LAUNCHES, default 10)
#          under ncu --clock-control none, gpu__time_duration
#   spread transpose-shared in two more processes, then a fourth with
#          --spread-from the three: the spread between processes in its block
#   cupti  the short kernels (empty, transpose-shared-1k) in --mode cupti, and in
#          --mode graph-pdl beside it (issue 44, item 4)
#   aa     A/A: fma_loop (about 30 us) against an identical build, and
#          transpose_shared against itself, --repeat PAIRS (default 20) each
#   ab     A/B: fma_loop against a build 2% longer (-DEXTRA_PERCENT=2),
#          --repeat PAIRS
#   example the instrument's examples/cudarc_launch (a kernel launched with
#          cudarc inside the Launch closure), from .evidence-bin/
#   softmax row-softmax, the kernel furthest from ncu in the first session,
#          under other conditions: ncu in two more processes and with
#          --cache-control none; kernel-timer in two more isolated processes
#          and in cold-cache and hot mode (what its distance from ncu is made of)
#   long   a 10 ms fma_loop in four processes with the default budget and in
#          four with --budget-ms 150 (the suite's), the fourth of each with
#          --spread-from the three: the spread between processes against the
#          GPU time spent (issue 44, item 4)
#   long-suite the suite's own fma-10ms in four instrument-suite processes
#          (issue 44, item 4 names that kernel), as the suite session runs it
#   floor  the suite's vector-add-l2 and empty in graph, graph-pdl and cupti
#          mode, in three instrument-suite processes (issue 44, item 4: graph
#          replay within 0.1 us of CUPTI's records)
# then summarize.py over the JSON and CSV files (kernel-timer's median over
# ncu's per kernel, CUPTI beside graph replay, the A/A and A/B labels).
#
# Every process's output is recorded by `evidence record --lesson instrument`
# (a transcript with its metadata header) under OUT/evidence/instrument/,
# ready for `evidence merge OUT/evidence`; the processes' JSON files are
# packed with the steps' logs in OUT/kernel-timer-work.tar.gz. About 2 to 3 minutes on an H200.
set -uo pipefail
# The argument words hold brackets and stars (f32[8192*8192]): no globbing.
set -f
out=${1:?usage: session.sh OUT}
: "${EVIDENCE_COMMIT:?set EVIDENCE_COMMIT to the commit the tree was copied from}"
export EVIDENCE_COMMIT
here=$(cd "$(dirname "$0")" && pwd)
set_cu=crates/measure/kernel-timer/kernels/set.cu
bin=${BIN:-$PWD/.evidence-bin/kernel-timer}
evidence=${EVIDENCE:-$PWD/.evidence-bin/evidence}
launches=${NCU_LAUNCHES:-10}
pairs=${PAIRS:-20}
steps=" ${STEPS:-times ncu spread cupti aa ab example softmax long long-suite floor} "
mkdir -p "$out/evidence"
out=$(cd "$out" && pwd)
ev=$out/evidence
w=$(mktemp -d)/kernel-timer
mkdir -p "$w"
# The GPU's name as a file-name word: `NVIDIA H200` -> h200.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 |
  sed -e 's/^NVIDIA //' | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed -e 's/-*$//')
runtime="$(.evidence-bin/cuda-versions-rust 2> /dev/null || echo unknown) (static cudart of the provisioned CUDA 13.0 wheels); set.cu by $(nvcc --version | grep release)"

# The set: NAME FILE KERNEL, then kernel-timer's shape, arguments and traffic.
n=8192 small=1024 rows=8192 cols=4096 sum_n=67108864
set_args=(
  "transpose-naive $set_cu transpose_naive --grid 256x256 --block 32x32 --arg f32[$n*$n] --arg f32[$n*$n]=random:1 --arg i32=$n --bytes-read $((n * n * 4)) --bytes-written $((n * n * 4))"
  "transpose-shared $set_cu transpose_shared --grid 256x256 --block 32x8 --arg f32[$n*$n] --arg f32[$n*$n]=random:1 --arg i32=$n --bytes-read $((n * n * 4)) --bytes-written $((n * n * 4))"
  "transpose-shared-1k $set_cu transpose_shared --grid 32x32 --block 32x8 --arg f32[$small*$small] --arg f32[$small*$small]=random:1 --arg i32=$small --bytes-read $((small * small * 4)) --bytes-written $((small * small * 4))"
  "block-sum $set_cu block_sum --grid 1056 --block 256 --shared 1024 --arg f32[$sum_n]=random:2 --arg f32[1056] --arg i32=$sum_n --bytes-read $((sum_n * 4)) --bytes-written $((1056 * 4))"
  "row-softmax $set_cu row_softmax --grid $rows --block 256 --shared 1024 --arg f32[$rows*$cols]=random:3 --arg f32[$rows*$cols] --arg i32=$cols --bytes-read $((rows * cols * 4)) --bytes-written $((rows * cols * 4))"
  "fma-loop-1ms $set_cu fma_loop --grid 264 --block 256 --arg f32[67584] --arg i32=125000 --ops $((67584 * 125000 * 8))"
  "empty $set_cu empty --grid 1 --block 32"
  # A lesson's kernel from the lesson's own .cu, as its README's "Try it" says.
  "day09-vector-add code/day09-timing/timing.cu vectorAdd --grid 65539 --block 256 --arg f32[16777827]=random:1 --arg f32[16777827]=random:2 --arg f32[16777827] --arg u64=16777827 --bytes-read 134222616 --bytes-written 67111308"
)
short=" transpose-shared-1k empty "
# The A/A and A/B kernel: about 30 us of FMA chains.
fma_ab="fma_loop --grid 264 --block 256 --arg f32[67584] --arg i32=4000 --budget-ms 100"

log() { echo "$*" | tee -a "$out/steps.txt"; }
# rec NAME [VAR=value ...] -- COMMAND: the transcript evidence/instrument/<time>-NAME.txt.
rec() {
  local name=$1 path
  shift
  path=$(EVIDENCE_RUNTIME=$runtime "$evidence" --evidence "$ev" record --lesson instrument --name "$name" "$@")
  echo "$name: ${path:-not recorded}"
  [[ -n $path ]] && cp "$path" "$w/$name.txt"
}
step() {
  local name=$1
  [[ $steps == *" $name "* ]] || { log "$name: not asked for (STEPS)"; return; }
  "run_${name//-/_}" > "$w/$name.log" 2>&1
  log "$name: rc=$?"
}

run_times() {
  local line name args
  for line in "${set_args[@]}"; do
    read -r name args <<< "$line"
    # shellcheck disable=SC2086 # args is the word list above
    rec "$gpu-kernel-timer-$name" -- "$bin" $args --json "$w/$name.json"
  done
}
run_ncu() {
  local line name args
  for line in "${set_args[@]}"; do
    read -r name args <<< "$line"
    # shellcheck disable=SC2086
    rec "$gpu-kernel-timer-ncu-$name" -- ncu --clock-control none --metrics gpu__time_duration.sum \
      --csv --print-units base "$bin" $args --launch-only "$launches"
  done
}
run_spread() {
  local args
  read -r _ args <<< "${set_args[1]}"
  for i in 2 3; do
    # shellcheck disable=SC2086
    rec "$gpu-kernel-timer-spread-transpose-shared-$i" -- "$bin" $args --json "$w/spread-$i.json"
  done
  # shellcheck disable=SC2086
  rec "$gpu-kernel-timer-spread-transpose-shared-4" -- "$bin" $args --json "$w/spread-4.json" \
    --spread-from "$w/transpose-shared.json" "$w/spread-2.json" "$w/spread-3.json"
}

run_cupti() {
  local line name args
  for line in "${set_args[@]}"; do
    read -r name args <<< "$line"
    [[ $short == *" $name "* ]] || continue
    # shellcheck disable=SC2086
    rec "$gpu-kernel-timer-cupti-$name" -- "$bin" $args --mode cupti --json "$w/cupti-$name.json"
    # Programmatic edges between the replayed launches: the candidate for
    # the floor within 0.1 us of CUPTI (issue 44, item 4).
    # shellcheck disable=SC2086
    rec "$gpu-kernel-timer-graph-pdl-$name" -- "$bin" $args --mode graph-pdl --json "$w/graph-pdl-$name.json"
  done
}
run_aa() {
  # shellcheck disable=SC2086
  rec "$gpu-kernel-timer-aa-fma" -- "$bin" "$set_cu" $fma_ab --nvcc-arg=-DEXTRA_PERCENT=0 \
    --b-nvcc-arg=-DEXTRA_PERCENT=0 --repeat "$pairs" --json "$w/aa-fma.json"
  local args
  read -r _ args <<< "${set_args[1]}"
  # shellcheck disable=SC2086
  rec "$gpu-kernel-timer-aa-transpose" -- "$bin" $args --b-kernel transpose_shared --budget-ms 100 \
    --repeat "$pairs" --json "$w/aa-transpose.json"
}
run_ab() {
  # shellcheck disable=SC2086
  rec "$gpu-kernel-timer-ab-fma-2pct" -- "$bin" "$set_cu" $fma_ab --nvcc-arg=-DEXTRA_PERCENT=0 \
    --b-nvcc-arg=-DEXTRA_PERCENT=2 --repeat "$pairs" --json "$w/ab-fma.json"
}
run_example() {
  rec "$gpu-instrument-cudarc-launch-example" -- "${bin%/*}/cudarc_launch"
}

run_softmax() {
  local args ncu_args=(--clock-control none --metrics gpu__time_duration.sum --csv --print-units base)
  read -r _ args <<< "${set_args[4]}"
  for i in 2 3; do
    # shellcheck disable=SC2086
    rec "$gpu-kernel-timer-ncu-row-softmax-$i" -- ncu "${ncu_args[@]}" "$bin" $args --launch-only "$launches"
    # shellcheck disable=SC2086
    rec "$gpu-kernel-timer-row-softmax-$i" -- "$bin" $args --json "$w/row-softmax-$i.json"
  done
  # shellcheck disable=SC2086
  rec "$gpu-kernel-timer-ncu-nocache-row-softmax" -- ncu "${ncu_args[@]}" --cache-control none "$bin" $args \
    --launch-only "$launches"
  for mode in cold-cache hot; do
    # shellcheck disable=SC2086
    rec "$gpu-kernel-timer-$mode-row-softmax" -- "$bin" $args --mode "$mode" --json "$w/$mode-row-softmax.json"
  done
}

run_long() {
  local fma10=(fma_loop --grid 264 --block 256 --arg "f32[67584]" --arg i32=1250000 --ops $((67584 * 1250000 * 8)))
  for budget in 1000 150; do
    for i in 1 2 3; do
      rec "$gpu-kernel-timer-fma-10ms-b$budget-$i" -- "$bin" "$set_cu" "${fma10[@]}" --budget-ms "$budget" \
        --json "$w/long-b$budget-$i.json"
    done
    rec "$gpu-kernel-timer-fma-10ms-b$budget-4" -- "$bin" "$set_cu" "${fma10[@]}" --budget-ms "$budget" \
      --json "$w/long-b$budget-4.json" --spread-from "$w/long-b$budget-1.json" "$w/long-b$budget-2.json" \
      "$w/long-b$budget-3.json"
  done
}
run_long_suite() {
  local suite=${bin%/*}/instrument-suite
  for i in 1 2 3 4; do
    rec "$gpu-instrument-suite-fma-10ms-$i" -- "$suite" --kernel fma10ms --json "$w/long-suite-$i.json-suite"
  done
}
run_floor() {
  local suite=${bin%/*}/instrument-suite
  for i in 1 2 3; do
    for k in vector-add-l2 empty; do
      rec "$gpu-instrument-suite-floor-$k-$i" -- "$suite" --kernel "$k" --mode graph --mode graph-pdl \
        --mode cupti --json "$w/floor-$k-$i.json-suite"
    done
  done
}

log "kernel-timer session: commit=$EVIDENCE_COMMIT BIN=$bin STEPS=$steps NCU_LAUNCHES=$launches PAIRS=$pairs"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee -a "$out/steps.txt"
step times
step ncu
step spread
step cupti
step aa
step ab
step example
step softmax
step long
step long-suite
step floor
rec "$gpu-kernel-timer-session" -- python3 "$here/summarize.py" "$w" > /dev/null
cp "$w/$gpu-kernel-timer-session.txt" "$out/summary.txt" 2> /dev/null
tar -czf "$out/kernel-timer-work.tar.gz" -C "$(dirname "$w")" kernel-timer
log "done"
