#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The instrument against Nsight Compute and nvbench on the kernel suite, in
# one session on the GPU machine (issue 16). Run from the repository root:
#
#   crates/instrument/gpu/suite-session.sh OUT
#
# with BIN (default .gpu-bench/instrument-suite, built here with
# `cargo build --release -p instrument`) and WHEELS (default .whl, from
# fetch-wheels.sh) carried along. Steps, each timed:
#   setup      the wheels into a private folder; the cubin out of BIN; the
#              SASS of BIN's sm_90 code and of the cubin, side by side
#   suite      instrument-suite in PROCS processes (default 5), --json each
#   ncu        `instrument-suite launch` (NCU_LAUNCHES of each kernel, default
#              20) under ncu --clock-control none, gpu__time_duration
#   nvbench    nvbench_suite.py on the same cubin in NVB_PROCS processes
#              (default PROCS; cold and batch in each), --json each, with
#              NVB_ARGS (default none) added to nvbench's command line
#   pairs      PAIRS (default 41) rounds of two vector-add processes, A_i at
#              n and B_i at 1.02 n: `compare A_i B_i` (A/B) in every round,
#              `compare A_(i-1) A_i` (A/A) from the second on: 41 A/B and
#              40 A/A pairs from 82 processes
#   nvb-pairs  NVB_PAIRS (default 4) rounds of the same with nvbench, and
#              nvbench's own nvbench_compare.py on each pair
# STEPS (default all) names the steps to run besides setup.
# A step that would start after DEADLINE_S seconds (default 225) is skipped,
# and a pairs loop stops there; steps.txt says so. Everything lands in
# OUT/suite-session.tar.gz, beside OUT/steps.txt and OUT/summary.txt.
set -uo pipefail
out=${1:?usage: suite-session.sh OUT}
bin=${BIN:-.gpu-bench/instrument-suite}
wheels=${WHEELS:-.whl}
procs=${PROCS:-5}
nvb_procs=${NVB_PROCS:-$procs}
# Extra nvbench options for every nvbench process (default none: nvbench's
# own stopping rules, which the GPU-time comparison needs).
read -r -a nvb_args <<< "${NVB_ARGS:-}"
pairs=${PAIRS:-41}
nvb_pairs=${NVB_PAIRS:-4}
ncu_launches=${NCU_LAUNCHES:-20}
deadline=${DEADLINE_S:-225}
# Which steps to run (setup always runs): a session too long for one call
# can be split, e.g. STEPS="suite ncu nvbench" then STEPS="pairs nvb-pairs".
steps=" ${STEPS:-suite ncu nvbench pairs nvb-pairs} "
here=$(cd "$(dirname "$0")" && pwd)
# instrument-suite's kernels in the order `launch` launches them.
suite_order=empty,vector-add-l2,vector-add,copy-1gib,fma-1ms,fma-10ms
mkdir -p "$out"
out=$(cd "$out" && pwd)
w=$(mktemp -d)/suite-session
py=$(mktemp -d)/py
mkdir -p "$w"/{suite,nvbench,pairs,nvb-pairs}
start=$EPOCHREALTIME

since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
elapsed() { since "$start"; }
past_deadline() { awk -v e="$(elapsed)" -v d="$deadline" 'BEGIN { exit !(e > d) }'; }
log() { echo "$*" | tee -a "$out/steps.txt"; }
# step NAME FUNCTION: runs FUNCTION unless past the deadline, and logs its time.
step() {
  if [[ $1 != setup && $steps != *" $1 "* ]]; then log "$(printf '%-10s not asked for (STEPS)' "$1")"; return; fi
  if past_deadline; then log "$(printf '%-10s skipped: past %s s' "$1" "$deadline")"; return; fi
  local t0=$EPOCHREALTIME
  ("$2") > "$w/$1.log" 2>&1
  local rc=$?
  log "$(printf '%-10s rc=%d %7.1f s (at %.1f s)' "$1" "$rc" "$(since "$t0")" "$(elapsed)")"
}

setup() {
  set -x
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  python3 -m pip install --quiet --no-index --no-deps --no-compile --no-cache-dir --target "$py" "$wheels"/*.whl
  "$bin" --version
  "$bin" cubin "$w/suite.cubin"
  # The same machine code in both? cuobjdump names each function's SASS.
  cuobjdump -sass -arch sm_90 "$bin" | grep -v -e '^\s*$' -e 'Fatbin' -e 'code for' -e 'arch =' -e 'identifier' -e 'ptxasOptions' -e '====' > "$w/sass-bin.txt"
  cuobjdump -sass "$w/suite.cubin" | grep -v -e '^\s*$' -e 'Fatbin' -e 'code for' -e 'arch =' -e 'identifier' -e 'ptxasOptions' -e '====' > "$w/sass-cubin.txt"
  if cmp -s "$w/sass-bin.txt" "$w/sass-cubin.txt"; then echo "SASS: the binary's sm_90 code and the cubin are the same"; else echo "SASS: they differ (see sass-*.txt)"; fi
}

suite() {
  for i in $(seq 1 "$procs"); do
    "$bin" --json "$w/suite/suite-$i.json" > "$w/suite/suite-$i.txt" 2>&1
    echo "suite $i rc=$?"
  done
}

ncu_truth() {
  ncu --clock-control none --metrics gpu__time_duration.sum --csv --print-units base \
    "$bin" launch --count "$ncu_launches" > "$w/ncu.csv" 2> "$w/ncu-stderr.txt"
  echo "ncu rc=$?"
}

nvb() { # JSON LOG [driver args]
  local json=$1 txt=$2
  shift 2
  PYTHONPATH="$py" python3 "$here/nvbench_suite.py" "$w/suite.cubin" "$@" "${nvb_args[@]}" --json "$json" > "$txt" 2>&1
  echo "nvbench $json rc=$?"
}

nvbench_suite() {
  for i in $(seq 1 "$nvb_procs"); do nvb "$w/nvbench/nvbench-$i.json" "$w/nvbench/nvbench-$i.txt"; done
}

pair_runs() {
  local d=$w/pairs
  for i in $(seq 1 "$pairs"); do
    past_deadline && { echo "stopped before round $i: past the deadline"; break; }
    "$bin" --kernel vector-add --json "$d/a-$i.json" > "$d/a-$i.txt" 2>&1
    "$bin" --kernel vector-add --scale 1.02 --json "$d/b-$i.json" > "$d/b-$i.txt" 2>&1
    "$bin" compare "$d/a-$i.json" "$d/b-$i.json" > "$d/compare-ab-$i.txt" 2>&1
    local aa=-
    if ((i > 1)); then
      "$bin" compare "$d/a-$((i - 1)).json" "$d/a-$i.json" > "$d/compare-aa-$i.txt" 2>&1
      aa=$(awk '$1 == "vector-add" { print $2 }' "$d/compare-aa-$i.txt")
    fi
    echo "round $i: A/A $aa, A/B $(awk '$1 == "vector-add" { print $2 }' "$d/compare-ab-$i.txt")"
  done
}

nvb_pair_runs() {
  local d=$w/nvb-pairs
  for i in $(seq 1 "$nvb_pairs"); do
    past_deadline && { echo "stopped before round $i: past the deadline"; break; }
    nvb "$d/a-$i.json" "$d/a-$i.txt" --kernel vector-add
    nvb "$d/aa-$i.json" "$d/aa-$i.txt" --kernel vector-add
    nvb "$d/b-$i.json" "$d/b-$i.txt" --kernel vector-add --scale 1.02
    for kind in aa ab; do
      local other=${kind/ab/b}
      PYTHONPATH="$py:$py/cuda/bench/scripts" python3 "$py/cuda/bench/scripts/nvbench_compare.py" --no-color \
        "$d/a-$i.json" "$d/$other-$i.json" > "$d/nvbench-compare-$kind-$i.txt" 2>&1
      echo "nvbench_compare a-$i $other-$i rc=$?"
    done
  done
}

summary() {
  python3 "$here/summarize_session.py" "$w" "$suite_order" "$ncu_launches"
  echo "== labels of instrument-suite compare on vector-add (A/A: same n; A/B: B at 1.02 n)"
  for kind in aa ab; do
    printf '%s: ' "$kind"
    cat "$w"/pairs/compare-"$kind"-*.txt 2> /dev/null | awk '$1 == "vector-add" { n[$2]++ } END { for (l in n) printf "%s %d  ", l, n[l]; print "" }'
  done
  echo "== recommended-mode medians per process"
  for f in "$w"/suite/suite-*.txt; do echo "-- $f"; sed -n '3,$p' "$f"; done
  echo "== SASS"; grep SASS "$w/setup.log"
}

log "suite-session: STEPS=$steps BIN=$bin PROCS=$procs NVB_PROCS=$nvb_procs NVB_ARGS=${NVB_ARGS:-} PAIRS=$pairs NVB_PAIRS=$nvb_pairs NCU_LAUNCHES=$ncu_launches DEADLINE_S=$deadline"
step setup setup
step suite suite
step ncu ncu_truth
step nvbench nvbench_suite
step pairs pair_runs
step nvb-pairs nvb_pair_runs
summary > "$out/summary.txt" 2>&1
cp "$out/steps.txt" "$w/"
tar -czf "$out/suite-session.tar.gz" -C "$(dirname "$w")" suite-session
log "$(printf 'done at %.1f s; %s' "$(elapsed)" "$(du -h "$out/suite-session.tar.gz" | cut -f1)")"
