#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Issue 36 in one device call (at most 9 minutes; about 4 expected), from the
# repository root, with .gpu-inst/ carried along:
#
#   bash .gpu-inst/gpu-inst.sh "$OUT"
#
# .gpu-inst/ holds release binaries built from branch `instrument` (commit in
# .gpu-inst/COMMIT): instrument-suite, day09-timing, the instrument's GPU
# tests (instrument-on_gpu) and floor_diag (floor_diag.cu, built with the
# provisioned CUDA 13.0 nvcc). Steps, each timed in steps.txt, each skipped
# once past DEADLINE_S (default 500 s):
#   setup    nvidia-smi, versions, the GPU tests of the instrument (--ignored)
#   floor    part 1: floor_diag (the old host-queued isolated timing against
#            the fix's in-graph events, with host delays planted); day09-timing
#            --stats --json in DAY9_PROCS processes (default 5); instrument-suite
#            --kernel vector-add --mode isolated in 3 processes
#   cupti    part 2: instrument-suite --kernel K --mode graph --mode cupti for
#            the floor kernels (empty, vector-add-l2), CUPTI_PROCS processes
#            each (default 5); ncu gpu__time_duration of both (20 launches)
#   fma      part 3: fma-1ms and fma-10ms in FMA_PROCS processes each
#            (default 8), interleaved, recommended mode, with nvidia-smi
#            sampling clocks, power and temperature every 100 ms and its
#            clock-event counters read after each process; then
#            MODE_PROCS (default 3) processes of fma-10ms and fma-1ms in hot,
#            graph and isolated, for which mode spreads least
#   aa       part 5: AA_PROCS (default 16) processes of the whole suite and
#            AB_PROCS (default 4) at --scale 1.02; compare on consecutive A/A
#            pairs with the H200 spreads, and on the last AA_PROCS - 6 with
#            --spread-from the first 6 (calibrated out of sample); A/B pairs
#   summary  summarize.py over everything: OUT/summary.txt
# OUT gets at most 5 files: steps.txt, summary.txt, results.tar.xz (every
# log, table and JSON; split into results.tar.xz.NN of 15 MiB if larger),
# and nvidia-smi.csv.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: gpu-inst.sh OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
suite=$here/instrument-suite
day9=$here/day09-timing
deadline=${DEADLINE_S:-500}
day9_procs=${DAY9_PROCS:-5}
cupti_procs=${CUPTI_PROCS:-5}
fma_procs=${FMA_PROCS:-8}
mode_procs=${MODE_PROCS:-3}
aa_procs=${AA_PROCS:-16}
ab_procs=${AB_PROCS:-4}
w=$(mktemp -d)/issue36
mkdir -p "$w"/{setup,floor,cupti,fma,aa}
start=$EPOCHREALTIME

since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
past_deadline() { awk -v e="$(since "$start")" -v d="$deadline" 'BEGIN { exit !(e > d) }'; }
log() { echo "$*" | tee -a "$out/steps.txt"; }
step() {
  local name=$1
  shift
  if past_deadline; then log "$(printf '%-8s skipped: past %s s' "$name" "$deadline")"; return; fi
  local t0=$EPOCHREALTIME
  ("$@") > "$w/$name.log" 2>&1
  log "$(printf '%-8s rc=%d %7.1f s (at %.1f s)' "$name" "$?" "$(since "$t0")" "$(since "$start")")"
}
# run FILE CMD...: CMD recorded by the project's recorder (evidence record:
# the header names the GPU, driver, toolkit, host, command and commit) into
# $w/evidence/diagnostics, and the transcript copied to FILE for summarize.py
# (which skips the header's # lines).
ev=$here/evidence
run() {
  local f=$1
  shift
  local name
  name=$(basename "$f")
  name=i36-${name%.*}
  name=${name//[^A-Za-z0-9._+-]/-}
  local path
  # A process that hangs must not take the rest of the call with it.
  path=$(EVIDENCE_COMMIT=$(cat "$here/COMMIT") "$ev" --evidence "$w/evidence" record \
    --lesson diagnostics --name "$name" --timeout "${PROC_TIMEOUT_S:-90}" -- "$@" 2>> "$w/record.log")
  [[ -n $path && -f $path ]] && cp "$path" "$f"
}

setup() {
  nvidia-smi
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  "$suite" --version
  "$day9" --version
  ls -la "$here"
  run "$w/setup/instrument-on_gpu.txt" "$here/instrument-on_gpu" --ignored --test-threads 1
}

floor() {
  run "$w/floor/floor_diag.txt" "$here/floor_diag" 1000
  for i in $(seq 1 "$day9_procs"); do
    run "$w/floor/day09-stats-$i.txt" "$day9" --stats --json "$w/floor/day09-stats-$i.json"
  done
  for i in 1 2 3; do
    run "$w/floor/suite-isolated-$i.txt" "$suite" --kernel vector-add --mode isolated --json "$w/floor/suite-isolated-$i.json"
  done
}

cupti() {
  for i in $(seq 1 "$cupti_procs"); do
    for k in empty vector-add-l2; do
      run "$w/cupti/$k-$i.txt" "$suite" --kernel "$k" --mode graph --mode cupti --json "$w/cupti/$k-$i.json"
    done
  done
  for k in empty vector-add-l2; do
    run "$w/cupti/ncu-$k.txt" ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
      "$suite" launch --count 20 --kernel "$k"
  done
}

fma() {
  nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu \
    --format=csv -lms 100 > "$out/nvidia-smi.csv" 2>&1 &
  local smi=$!
  # The driver's clock-event counters (time spent power-capped, slowed down,
  # ...) before and after each process: a slow spell the per-sample clock
  # readings miss may still show as a counter that moved.
  nvidia-smi -q -d PERFORMANCE,POWER,CLOCK > "$w/fma/performance-0.txt" 2>&1
  for i in $(seq 1 "$fma_procs"); do
    for k in fma-1ms fma-10ms; do
      run "$w/fma/$k-$i.txt" "$suite" --kernel "${k//-/}" --json "$w/fma/$k-$i.json"
      nvidia-smi -q -d PERFORMANCE > "$w/fma/performance-$k-$i.txt" 2>&1
    done
  done
  for i in $(seq 1 "$mode_procs"); do
    for k in fma-10ms fma-1ms; do
      run "$w/fma/modes-$k-$i.txt" "$suite" --kernel "${k//-/}" --mode hot --mode graph --mode isolated \
        --json "$w/fma/modes-$k-$i.json"
    done
  done
  kill "$smi" 2> /dev/null
  wait "$smi" 2> /dev/null
  return 0
}

aa() {
  for i in $(seq 1 "$aa_procs"); do
    run "$w/aa/a-$i.txt" "$suite" --json "$w/aa/a-$i.json"
  done
  for i in $(seq 1 "$ab_procs"); do
    run "$w/aa/b-$i.txt" "$suite" --scale 1.02 --json "$w/aa/b-$i.json"
  done
  local calib=()
  for i in $(seq 1 6); do calib+=("$w/aa/a-$i.json"); done
  for i in $(seq 2 "$aa_procs"); do
    "$suite" compare "$w/aa/a-$((i - 1)).json" "$w/aa/a-$i.json" > "$w/aa/compare-aa-$i.txt" 2>&1
    if ((i > 7)); then
      "$suite" compare "$w/aa/a-$((i - 1)).json" "$w/aa/a-$i.json" --spread-from "${calib[@]}" \
        > "$w/aa/compare-aa-calibrated-$i.txt" 2>&1
    fi
  done
  for i in $(seq 1 "$ab_procs"); do
    "$suite" compare "$w/aa/a-$i.json" "$w/aa/b-$i.json" > "$w/aa/compare-ab-$i.txt" 2>&1
  done
}

summary() {
  python3 "$here/summarize.py" "$w" > "$out/summary.txt" 2>&1
}

log "gpu-inst: commit=$(cat "$here/COMMIT" 2> /dev/null) DEADLINE_S=$deadline DAY9_PROCS=$day9_procs CUPTI_PROCS=$cupti_procs FMA_PROCS=$fma_procs MODE_PROCS=$mode_procs AA_PROCS=$aa_procs AB_PROCS=$ab_procs"
step setup setup
step floor floor
step cupti cupti
step fma fma
step aa aa
# The summary runs whatever the deadline: it reads what the steps left.
summary
log "$(printf 'summary  done (at %.1f s)' "$(since "$start")")"
cp "$out/steps.txt" "$w/"
XZ_OPT=-T0 tar -cJf "$out/results.tar.xz" -C "$(dirname "$w")" issue36
if (($(stat -c %s "$out/results.tar.xz") > 15 << 20)); then
  split -b 15M -d "$out/results.tar.xz" "$out/results.tar.xz." && rm "$out/results.tar.xz"
fi
log "$(printf 'done at %.1f s; %s' "$(since "$start")" "$(cd "$out" && du -ch results.tar.xz* | tr '\t\n' ' ')")"
