#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The instrument against Nsight Compute and nvbench on the kernel suite, in
# one session on the GPU machine (issue 16). Run from the repository root:
#
#   EVIDENCE_COMMIT=<commit> crates/measure/instrument-suite/gpu/suite-session.sh OUT
#
# with BIN (default .evidence-bin/instrument-suite), EVIDENCE (default
# .evidence-bin/evidence; both from ci/build-for-gpu.sh) and WHEELS (default
# .whl, from fetch-wheels.sh) carried along. Steps, each timed:
#   setup      the wheels into a private folder; the cubin out of BIN; the
#              SASS of BIN's sm_90 code and of the cubin, side by side
#   suite      instrument-suite in PROCS processes (default 5), --json each
#   ncu        `instrument-suite launch` (NCU_LAUNCHES of each kernel, default
#              20) under ncu --clock-control none, gpu__time_duration
#   nvbench    nvbench_suite.py on the same cubin in NVB_PROCS processes
#              (default PROCS; cold and batch in each), --json each, with
#              NVB_ARGS (default none) added to nvbench's command line
#   modes      MODE_PROCS instrument-suite processes (default 1) in each of
#              MODES (default hot, graph, graph-pdl, isolated, serial): every
#              kernel in every mode, held against the same ncu, so the
#              recommended mode's choice can be checked kernel by kernel
#              (once, with the first repetition)
#   nvb-pairs  NVB_PAIRS (default 5) rounds of A, A' at n and B at 1.02 n with
#              nvbench, and nvbench's own nvbench_compare.py on A/A' and A/B
#   pairs      PAIRS (default 41) rounds of two vector-add processes, A_i at
#              n and B_i at 1.02 n: `compare A_i B_i` (A/B) in every round,
#              `compare A_(i-1) A_i` (A/A) from the second on
# REPEAT (default 1) runs the whole comparison (suite, ncu, nvbench,
# nvb-pairs, pairs) that many times, each repetition in its own folder with
# its own summary table; modes run once, after the first. STEPS (default
# all) names the steps to run besides setup. A step that would start after
# DEADLINE_S seconds (default 590) is skipped and a pairs loop stops there;
# steps.txt says what ran. A repetition takes about 255 s on an H200 (about
# 210 s without nvb-pairs; the recorded sessions' steps), so one 600 s call
# holds two at most (the default deadline is a guard, not a plan).
#
# Every process's console output is recorded by `evidence record` under
# evidence/instrument-suite/ (a transcript with the run's metadata
# header: commit, date, GPU, driver, CUDA, command; and its JSON twin): each
# instrument-suite table, ncu's CSV, each nvbench process, each pairs round
# (both tables and both compares), setup. The processes' own --json files
# cannot carry a header: they are copied to evidence/instrument-suite/
# json-<commit>-<time>/ and the `session` transcript lists them with their
# SHA-256 beside the summary tables. That folder is packed as
# OUT/evidence.tar.xz (split into OUT/evidence.tar.xz.NN of 15 MiB where
# larger: a device call returns 8 files of at most 16 MiB), to unpack into
# the repository's evidence/. The rest of the work folder (logs, the cubin,
# SASS; no JSON, which the evidence holds) is OUT/suite-session.tar.gz,
# beside OUT/steps.txt and OUT/summary.txt.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${BIN:-.evidence-bin/instrument-suite}

# One round of pairs, run by `evidence record` so its transcript holds both
# processes' tables and both compares: pair-round I DIR.
if [[ ${1:-} == pair-round ]]; then
  i=$2 d=$3
  for side in "a --kernel vector-add" "b --kernel vector-add --scale 1.02"; do
    read -r name args <<< "$side"
    echo "== $name-$i: $bin $args"
    # shellcheck disable=SC2086 # args is the word list above
    "$bin" $args --json "$d/$name-$i.json" | tee "$d/$name-$i.txt"
  done
  echo "== compare a-$i b-$i (A/B)"
  "$bin" compare "$d/a-$i.json" "$d/b-$i.json" | tee "$d/compare-ab-$i.txt"
  if ((i > 1)); then
    echo "== compare a-$((i - 1)) a-$i (A/A)"
    "$bin" compare "$d/a-$((i - 1)).json" "$d/a-$i.json" | tee "$d/compare-aa-$i.txt"
  fi
  exit 0
fi

# One round of nvbench pairs: nvb-round I DIR PYDIR [nvbench args].
if [[ ${1:-} == nvb-round ]]; then
  i=$2 d=$3 py=$4
  shift 4
  for side in "a" "aa" "b --scale 1.02"; do
    read -r name args <<< "$side"
    echo "== $name-$i: nvbench_suite.py --kernel vector-add $args"
    # shellcheck disable=SC2086 # args is the word list above
    PYTHONPATH="$py" python3 "$here/nvbench_suite.py" "$d/../../suite.cubin" --kernel vector-add $args "$@" \
      --json "$d/$name-$i.json" 2>&1 | tee "$d/$name-$i.txt"
  done
  for kind in aa ab; do
    other=${kind/ab/b}
    echo "== nvbench_compare.py a-$i $other-$i"
    PYTHONPATH="$py:$py/cuda/bench/scripts" python3 "$py/cuda/bench/scripts/nvbench_compare.py" --no-color \
      "$d/a-$i.json" "$d/$other-$i.json" 2>&1 | tee "$d/nvbench-compare-$kind-$i.txt"
  done
  exit 0
fi

# The session's summary, recorded as the `session` transcript:
# summarize WORKDIR REPEAT NCU_LAUNCHES JSONDIR STEPS_TXT.
if [[ ${1:-} == summarize ]]; then
  w=$2 repeat=$3 launches=$4 jdir=$5
  echo "== steps"
  cat "$6"
  for k in $(seq 1 "$repeat"); do
    echo "== repetition $k of $repeat"
    python3 "$here/summarize_session.py" "$w/r$k" empty,vector-add-l2,vector-add,copy-1gib,fma-1ms,fma-10ms "$launches"
  done
  echo "== recommended-mode medians per process"
  # Each table after its transcript's header, less its device and
  # calibration lines.
  for f in "$w"/r*/suite/suite-*.txt; do echo "-- ${f#"$w"/}"; sed '1,/^# ---$/d' "$f" | sed -n '3,$p'; done
  echo "== SASS"
  grep '^SASS' "$w/setup.log"
  echo "== the processes' JSON files, kept beside this transcript in $(basename "$jdir")/"
  (cd "$jdir" && find . -type f -name '*.json' | sort | xargs sha256sum)
  exit 0
fi

out=${1:?usage: suite-session.sh OUT}
: "${EVIDENCE_COMMIT:?set EVIDENCE_COMMIT to the commit the tree was copied from}"
export EVIDENCE_COMMIT
evidence=${EVIDENCE:-.evidence-bin/evidence}
wheels=${WHEELS:-.whl}
procs=${PROCS:-5}
nvb_procs=${NVB_PROCS:-$procs}
# Extra nvbench options for every nvbench process (default none: nvbench's
# own stopping rules, which the GPU-time comparison needs).
nvb_args_text=${NVB_ARGS:-}
read -r -a nvb_args <<< "$nvb_args_text"
pairs=${PAIRS:-41}
nvb_pairs=${NVB_PAIRS:-5}
mode_procs=${MODE_PROCS:-1}
ncu_launches=${NCU_LAUNCHES:-20}
repeat=${REPEAT:-1}
read -r -a modes <<< "${MODES:-hot graph graph-pdl isolated serial}"
deadline=${DEADLINE_S:-590}
# Which steps to run (setup always runs): a session too long for one call
# can be split, e.g. STEPS="suite ncu nvbench" then STEPS="nvb-pairs pairs".
steps=" ${STEPS:-suite ncu nvbench modes nvb-pairs pairs} "
rust_runtime="$(.evidence-bin/cuda-versions-rust 2> /dev/null || echo unknown) (static cudart of the provisioned CUDA 13.0 wheels)"
nvb_runtime="cuda-bench 0.3.0 and cuda-bindings 13.0.3 wheels (Python)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
ev=$(mktemp -d)/evidence
w=$(mktemp -d)/suite-session
py=$(mktemp -d)/py
jdir=$ev/instrument-suite/json-${EVIDENCE_COMMIT:0:7}-$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$jdir"
for k in $(seq 1 "$repeat"); do mkdir -p "$w/r$k"/{suite,nvbench,pairs,nvb-pairs}; done
start=$EPOCHREALTIME

since() { awk -v a="$1" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }'; }
elapsed() { since "$start"; }
past_deadline() { awk -v e="$(elapsed)" -v d="$deadline" 'BEGIN { exit !(e > d) }'; }
log() { echo "$*" | tee -a "$out/steps.txt"; }
# step NAME FUNCTION [ARGS]: runs FUNCTION unless past the deadline, and
# logs its time.
step() {
  local name=$1 fn=$2
  shift 2
  if [[ $name != setup && $steps != *" ${name%%-r[0-9]*} "* ]]; then
    log "$(printf '%-10s not asked for (STEPS)' "$name")"
    return
  fi
  if past_deadline; then log "$(printf '%-10s skipped: past %s s' "$name" "$deadline")"; return; fi
  local t0=$EPOCHREALTIME
  ("$fn" "$@") > "$w/$name.log" 2>&1
  local rc=$?
  log "$(printf '%-10s rc=%d %7.1f s (at %.1f s)' "$name" "$rc" "$(since "$t0")" "$(elapsed)")"
}

# rec NAME COPY RUNTIME [VAR=value ...] -- COMMAND: records COMMAND's output
# as the transcript evidence/instrument-suite/<time>-NAME.txt (metadata
# header first) and copies the transcript to COPY, where the session reads it.
rec() {
  local name=$1 copy=$2 runtime=$3 path
  shift 3
  path=$(EVIDENCE_RUNTIME=$runtime "$evidence" --evidence "$ev" record --lesson instrument-suite --name "$name" "$@")
  echo "$name: ${path:-not recorded} (rc=$?)"
  [[ -n $path ]] && cp "$path" "$copy"
}

setup() {
  set -x
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  python3 -m pip install --quiet --no-index --no-deps --no-compile --no-cache-dir --target "$py" "$wheels"/*.whl
  "$bin" --version
  "$evidence" --version
  "$bin" cubin "$w/suite.cubin"
  # The same machine code in both? cuobjdump names each function's SASS.
  cuobjdump -sass -arch sm_90 "$bin" | grep -v -e '^\s*$' -e 'Fatbin' -e 'code for' -e 'arch =' -e 'identifier' -e 'ptxasOptions' -e '====' > "$w/sass-bin.txt"
  cuobjdump -sass "$w/suite.cubin" | grep -v -e '^\s*$' -e 'Fatbin' -e 'code for' -e 'arch =' -e 'identifier' -e 'ptxasOptions' -e '====' > "$w/sass-cubin.txt"
  if cmp -s "$w/sass-bin.txt" "$w/sass-cubin.txt"; then echo "SASS: the binary's sm_90 code and the cubin are the same"; else echo "SASS: they differ (see sass-*.txt)"; fi
}

suite() { # REPETITION
  local d=$w/r$1/suite
  for i in $(seq 1 "$procs"); do
    rec "r$1-suite-$i" "$d/suite-$i.txt" "$rust_runtime" -- "$bin" --json "$d/suite-$i.json"
  done
}

ncu_truth() { # REPETITION
  rec "r$1-ncu" "$w/r$1/ncu.csv" "$rust_runtime" -- ncu --clock-control none --metrics gpu__time_duration.sum \
    --csv --print-units base "$bin" launch --count "$ncu_launches"
}

nvbench_suite() { # REPETITION
  local d=$w/r$1/nvbench
  for i in $(seq 1 "$nvb_procs"); do
    rec "r$1-nvbench-$i" "$d/nvbench-$i.txt" "$nvb_runtime" "PYTHONPATH=$py" -- \
      python3 "$here/nvbench_suite.py" "$w/suite.cubin" "${nvb_args[@]}" --json "$d/nvbench-$i.json"
  done
}

mode_runs() {
  local d=$w/r1/modes
  mkdir -p "$d"
  for i in $(seq 1 "$mode_procs"); do
    for m in "${modes[@]}"; do
      rec "modes-$m-$i" "$d/mode-$m-$i.txt" "$rust_runtime" -- "$bin" --mode "$m" --json "$d/mode-$m-$i.json"
    done
  done
}

nvb_pair_runs() { # REPETITION
  local d=$w/r$1/nvb-pairs
  for i in $(seq 1 "$nvb_pairs"); do
    past_deadline && { echo "stopped before round $i: past the deadline"; break; }
    rec "r$1-nvb-pairs-round-$i" "$d/round-$i.txt" "$nvb_runtime" -- \
      bash "$here/suite-session.sh" nvb-round "$i" "$d" "$py" "${nvb_args[@]}"
  done
}

pair_runs() { # REPETITION
  local d=$w/r$1/pairs
  for i in $(seq 1 "$pairs"); do
    past_deadline && { echo "stopped before round $i: past the deadline"; break; }
    rec "r$1-pairs-round-$i" "$d/round-$i.txt" "$rust_runtime" "BIN=$bin" -- bash "$here/suite-session.sh" pair-round "$i" "$d"
    echo "round $i: A/B $(awk '$1 == "vector-add" { print $2 }' "$d/compare-ab-$i.txt" 2> /dev/null)" \
      "A/A $(awk '$1 == "vector-add" { print $2 }' "$d/compare-aa-$i.txt" 2> /dev/null)"
  done
}

# The JSON files the processes wrote, into the evidence folder.
keep_json() {
  (cd "$w" && find . -name '*.json' -exec cp --parents {} "$jdir" \;)
}

log "suite-session: commit=$EVIDENCE_COMMIT STEPS=$steps BIN=$bin REPEAT=$repeat PROCS=$procs NVB_PROCS=$nvb_procs NVB_ARGS=$nvb_args_text MODES=${modes[*]} PAIRS=$pairs NVB_PAIRS=$nvb_pairs NCU_LAUNCHES=$ncu_launches DEADLINE_S=$deadline"
step setup setup
for k in $(seq 1 "$repeat"); do
  step "suite-r$k" suite "$k"
  step "ncu-r$k" ncu_truth "$k"
  step "nvbench-r$k" nvbench_suite "$k"
  step "nvb-pairs-r$k" nvb_pair_runs "$k"
  step "pairs-r$k" pair_runs "$k"
  ((k == 1)) && step modes mode_runs
done
rec setup "$w/setup-transcript.txt" "none (the session's setup)" -- cat "$w/setup.log" > /dev/null
keep_json
rec session "$out/summary.txt" "none (summarize_session.py on the files above)" -- \
  bash "$here/suite-session.sh" summarize "$w" "$repeat" "$ncu_launches" "$jdir" "$out/steps.txt" > /dev/null
cp "$out/steps.txt" "$w/"
tar -czf "$out/suite-session.tar.gz" --exclude='*.json' -C "$(dirname "$w")" suite-session
XZ_OPT=-T0 tar -cJf "$out/evidence.tar.xz" -C "$ev" instrument-suite
if (($(stat -c %s "$out/evidence.tar.xz") > 15 << 20)); then
  split -b 15M -d "$out/evidence.tar.xz" "$out/evidence.tar.xz." && rm "$out/evidence.tar.xz"
fi
log "$(printf 'done at %.1f s; %s' "$(elapsed)" "$(cd "$out" && du -ch suite-session.tar.gz evidence.tar.xz* | tr '\t\n' ' ')")"
