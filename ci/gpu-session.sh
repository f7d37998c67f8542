#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Everything the lessons' evidence needs from one GPU machine, in one go.
# Runs there, in a copy of the working tree, with .evidence-bin/ made
# beforehand by ci/build-for-gpu.sh on a machine with Rust (see README.md,
# "Recording evidence").
#
# Usage: ci/gpu-session.sh runs|checks|instrument|same-compiler|thp|control <out-dir>
#   runs    builds each lesson's .cu with the README's nvcc line in a copy of
#           the lesson directory alone, then records C++ and Rust runs
#           alternately (DAY09_RUNS and DAY53_RUNS of each, 5 by default; Day 9
#           also one CUDA_MODULE_LOADING=EAGER run of each), and PyTorch's
#           pinned 256 MiB copy beside each Day 53 pair. Day 9's pairs swap
#           order every round: the first process on a fresh machine ran
#           slower on the host side in our sessions, and neither program should always be it.
#           Either count may be 0 to skip that lesson.
#   checks  the GPU-only Rust tests, then compute-sanitizer over both
#           programs of both lessons.
#   instrument
#           the measurement instrument's proof: Day 9's Rust twin with
#           --stats --json in 5 separate processes, ncu's gpu__time_duration
#           for the C++ program's full-size vectorAdd launches, and the same
#           kernel timed by cupyx.profiler.benchmark and triton's do_bench.
#   thp     how each Day 9 program's host memory is backed (ci/thp-probe.sh).
#   same-compiler
#           Day 9's C++ program as built by ci/build-for-gpu.sh (the host
#           compiler that built the Rust twin's copy of timing.cu) alternated
#           with the Rust twin, DAY09_RUNS of each: the CPU rows then time the
#           same machine code in both programs. PIN_CORE=N runs both on
#           one core.
#   control Day 9's C++ program against a byte-identical copy of itself (an
#           A/A control: what the machine alone does to two processes running
#           the same code) and against the Rust twin, DAY09_RUNS rounds of
#           the three, the order rotated each round.
# Transcripts go to <out-dir>/evidence/<lesson>/, ready to copy into evidence/.
set -euo pipefail
cd "$(dirname "$0")/.."
phase=${1:?usage: ci/gpu-session.sh runs|checks|instrument|same-compiler|thp|control <out-dir>}
out=${2:?usage: ci/gpu-session.sh runs|checks <out-dir>}
ev="$out/evidence"
mkdir -p "$ev"
: "${EVIDENCE_COMMIT:?set EVIDENCE_COMMIT to the commit the tree was copied from}"
export EVIDENCE_COMMIT

# Each lesson's C++ program, built as a learner would: its directory copied
# alone, the nvcc line from the lesson's header comment, nothing else.
build_alone() { # <lesson> <source> <binary> <nvcc flags...>
  local lesson=$1 src=$2 bin=$3
  shift 3
  local dir
  dir=$(mktemp -d)
  cp -r "code/$lesson/." "$dir/"
  (cd "$dir" && nvcc "$@" -o "$bin" "$src")
  echo "$dir/$bin"
}

nvcc -o /tmp/cuda-versions-cxx ci/cuda-versions.cu
cxx_runtime="$(/tmp/cuda-versions-cxx) (built with the nvcc below)"
rust_runtime="$(.evidence-bin/cuda-versions-rust) (static cudart of the provisioned CUDA 13.0 wheels)"

timing=$(build_alone day09-timing timing.cu timing -std=c++17 -O3 -arch=sm_90)
pinned=$(build_alone day53-pinned pinned.cu pinned -std=c++17 -O3 -arch=sm_90 -lineinfo)
rust09=.evidence-bin/day09-timing
rust53=.evidence-bin/day53-pinned

# record <lesson> <name> [VAR=value ...] -- <command ...>
record() {
  local lesson=$1 name=$2
  shift 2
  .evidence-bin/evidence record --dir "$ev" --lesson "$lesson" --name "$name" "$@"
}
cxx() { EVIDENCE_RUNTIME=$cxx_runtime record "$@"; }
rust() { EVIDENCE_RUNTIME=$rust_runtime record "$@"; }

case "$phase" in
runs)
  for i in $(seq "${DAY09_RUNS:-5}"); do
    if [ $((i % 2)) -eq 1 ]; then
      cxx day09-timing h200-cxx -- "$timing"
      rust day09-timing h200-rust -- "$rust09"
    else
      rust day09-timing h200-rust -- "$rust09"
      cxx day09-timing h200-cxx -- "$timing"
    fi
  done
  cxx day09-timing h200-cxx-eager CUDA_MODULE_LOADING=EAGER -- "$timing"
  rust day09-timing h200-rust-eager CUDA_MODULE_LOADING=EAGER -- "$rust09"
  for i in $(seq "${DAY53_RUNS:-5}"); do
    cxx day53-pinned h200-cxx -- "$pinned"
    rust day53-pinned h200-rust -- "$rust53"
    EVIDENCE_RUNTIME="PyTorch's own" record day53-pinned h200-torch-reference -- \
      python3 ci/torch_h2d_reference.py
  done
  ;;
checks)
  for t in .evidence-bin/tests/*; do
    rust gpu-tests "h200-$(basename "$t")" -- "$t" --ignored --test-threads=1
  done
  for tool in memcheck racecheck; do
    cxx day09-timing "h200-cxx-$tool" -- timeout "${SANITIZER_TIMEOUT:-60}" compute-sanitizer --tool "$tool" "$timing"
    rust day09-timing "h200-rust-$tool" -- timeout "${SANITIZER_TIMEOUT:-60}" compute-sanitizer --tool "$tool" "$rust09"
  done
  cxx day53-pinned h200-cxx-memcheck -- timeout "${SANITIZER_TIMEOUT:-60}" compute-sanitizer --tool memcheck "$pinned"
  rust day53-pinned h200-rust-memcheck -- timeout "${SANITIZER_TIMEOUT:-60}" compute-sanitizer --tool memcheck "$rust53"
  ;;
thp)
  # How each program's host buffers are backed (ci/thp-probe.sh).
  cxx diagnostics h200-cxx-thp -- ci/thp-probe.sh "$timing" 4
  rust diagnostics h200-rust-thp -- ci/thp-probe.sh "$rust09" 4
  ;;
instrument)
  mkdir -p "$ev/instrument-json"
  for i in 1 2 3 4 5; do
    rust day09-timing h200-rust-stats -- "$rust09" --stats --json "$ev/instrument-json/stats-$i.json"
  done
  # The first 15 vectorAdd launches of timing.cu are all at full n: row 3,
  # row 2, and row 4's 3 warm-ups and 10 timed runs.
  cxx instrument h200-ncu -- ncu --clock-control none --kernel-name vectorAdd --launch-count 15 \
    --metrics gpu__time_duration.sum --csv "$timing"
  EVIDENCE_RUNTIME="CuPy's and PyTorch's own" record instrument h200-peers -- python3 ci/peer_timers.py
  ;;
same-compiler)
  # PIN_CORE=N also runs both under `taskset -c N`, one core for the whole
  # process, to see whether where the scheduler puts the CPU loop matters.
  pin=()
  suffix=""
  if [ -n "${PIN_CORE:-}" ]; then
    pin=(taskset -c "$PIN_CORE")
    suffix="-core$PIN_CORE"
  fi
  for i in $(seq "${DAY09_RUNS:-5}"); do
    rust day09-timing "h200-cxx-hostbuilt$suffix" -- "${pin[@]}" .evidence-bin/timing
    rust day09-timing "h200-rust$suffix" -- "${pin[@]}" "$rust09"
  done
  ;;
control)
  copy=$(mktemp -d)/timing
  cp "$timing" "$copy"
  names=(h200-cxx h200-cxx-copy h200-rust)
  for i in $(seq "${DAY09_RUNS:-5}"); do
    for k in 0 1 2; do
      name=${names[$(((i + k) % 3))]}
      case $name in
      h200-cxx) cxx day09-timing "$name" -- "$timing" ;;
      h200-cxx-copy) cxx day09-timing "$name" -- "$copy" ;;
      h200-rust) rust day09-timing "$name" -- "$rust09" ;;
      esac
    done
  done
  ;;
*)
  echo "error: unknown phase '$phase' (runs, checks, instrument, same-compiler, thp or control)" >&2
  exit 1
  ;;
esac
for f in "$ev"/*/*.txt; do
  printf '%-60s %s\n' "$f" "$(grep '^# exit code' "$f")"
done
.evidence-bin/evidence check "$ev" | tail -n 3 || true
tar -czf "$out/evidence.tar.gz" -C "$out" evidence
