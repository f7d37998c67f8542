#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Everything the lessons' evidence needs from one GPU machine, in one go.
# Runs there, in a copy of the working tree, with .evidence-bin/ made
# beforehand by ci/build-for-gpu.sh on a machine with Rust (see README.md,
# "Recording evidence"). It names no lesson: the lessons and how each is
# recorded come from `evidence lessons` and `evidence recipe --lesson LESSON`, which
# read each lesson's report package.
#
# Usage: ci/gpu-session.sh runs|checks|toolkit|machine|<lesson phase> <out-dir> [lesson ...]
#   runs    builds each lesson's .cu with its recipe's nvcc line in a copy of
#           the lesson directory alone, then records C++ and Rust runs
#           alternately (the recipe's count, or RUNS), swapping which goes
#           first every round (the first process on a fresh machine ran
#           slower on the host side in our sessions), the recipe's reference
#           tool once per pair, then each variant (e.g. EAGER) of both.
#   checks  the GPU-only Rust tests, then each lesson's sanitizers over both
#           programs.
#   toolkit each lesson's C++ program and Rust twin built with CUDA 13.5
#           (.evidence-bin/cuda-13.5/, from ci/build-for-gpu.sh) beside the
#           13.0 builds, RUNS rounds (default 3), on this machine's driver;
#           then each 13.5 report against a 13.0 one of the same program,
#           line for line with the numbers masked (ci/report-diff.sh).
#   machine the machine facts the lessons' pages lean on (PCIe link, clocks,
#           GPU count, the CPU and any hypervisor under it, the persistence
#           mode, Nsight Compute's version and defaults), recorded once as
#           evidence/machine/ transcripts, so a figure such as a link speed is
#           quoted from a transcript too.
#   other   a lesson's own phase: code/<lesson>/tools/gpu-phases/<phase>.sh, sourced
#           here with record, cxx, rust, $cxx_bin, $rust_bin, $gpu and $ev.
# Lessons default to all of them. Runs are named <gpu>-<program>[-variant],
# <gpu> from the GPU the run found (`NVIDIA H200` -> h200). Transcripts go to
# <out-dir>/evidence/<lesson>/, ready to copy into evidence/.
set -euo pipefail
cd "$(dirname "$0")/.."
usage="usage: ci/gpu-session.sh runs|checks|toolkit|machine|<lesson phase> <out-dir> [lesson ...]"
phase=${1:?$usage}
out=${2:?$usage}
shift 2
mkdir -p "$out/evidence"
ev=$(cd "$out/evidence" && pwd)
: "${EVIDENCE_COMMIT:?set EVIDENCE_COMMIT to the commit the tree was copied from}"
export EVIDENCE_COMMIT
evidence=$PWD/.evidence-bin/evidence
lessons=("$@")
[ ${#lessons[@]} -gt 0 ] || mapfile -t lessons < <("$evidence" lessons)

# The GPU's name as a file-name word: `NVIDIA H200` -> h200.
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1 |
  sed -e 's/^NVIDIA //' | tr '[:upper:]' '[:lower:]' | tr -cs 'a-z0-9' '-' | sed -e 's/-*$//')

nvcc -o /tmp/cuda-versions-cxx ci/cuda-versions.cu
cxx_runtime="$(/tmp/cuda-versions-cxx) (built with the nvcc below)"
rust_runtime="$(.evidence-bin/cuda-versions-rust) (static cudart of the provisioned CUDA 13.0 wheels)"

# record <lesson> <name> [VAR=value ...] -- <command ...>
# The recorder exits with its program's status, but a run that fails is
# evidence too: only a transcript that was not written (no path printed)
# stops the session.
record() {
  local lesson=$1 name=$2 path
  shift 2
  path=$("$evidence" --evidence "$ev" record --lesson "$lesson" --name "$name" "$@") || true
  [ -n "$path" ] || { echo "error: $lesson $name was not recorded" >&2; exit 1; }
  echo "$path"
}
cxx() { EVIDENCE_RUNTIME=$cxx_runtime record "$@"; }
rust() { EVIDENCE_RUNTIME=$rust_runtime record "$@"; }

# recipe <lesson> <key>: the values of every `key value` line of its recipe.
recipe() { "$evidence" recipe --lesson "$1" | sed -n "s/^$2 //p"; }

# The lesson's C++ program, built as a learner would: its directory copied
# alone, its one nvcc line, nothing else (`evidence build-alone`, the routine
# `cargo xtask check`'s rule 10 runs too). Prints the binary's path.
build_alone() { # <lesson>
  "$evidence" build-alone --lesson "$1"
}

if [ "$phase" = machine ]; then
  record machine "$gpu-pcie-and-clocks" -- nvidia-smi \
    --query-gpu=index,name,pcie.link.gen.gpumax,pcie.link.gen.hostmax,pcie.link.gen.max,pcie.link.width.max,clocks.max.sm,clocks.applications.graphics,clocks.max.memory \
    --format=csv
  record machine "$gpu-topology" -- nvidia-smi topo -m
  # The host's CPU, and the hypervisor if it is a guest: a blocking wait's
  # wake-up goes through interrupt delivery, which a VM changes.
  record machine "$gpu-lscpu" -- lscpu
  # The persistence mode: without it the driver tears the GPU's state down
  # whenever no process holds it, so a first CUDA call sets it up again;
  # with it, the state stays. The lessons' context times depend on it.
  record machine "$gpu-persistence" -- nvidia-smi \
    --query-gpu=index,name,persistence_mode,pstate,clocks.sm,clocks.mem --format=csv
  # Nsight Compute's version and its defaults for the three controls that
  # change what it measures: clock control, cache control and replay mode.
  record machine "$gpu-ncu-defaults" -- sh -c \
    'ncu --version && ncu --help | grep -A 6 -E -e "--(clock-control|cache-control|replay-mode) "'
  lessons=()
fi

phases_found=0
for lesson in "${lessons[@]}"; do
  cxx_bin=$(build_alone "$lesson")
  rust_bin=.evidence-bin/$lesson
  case "$phase" in
  runs)
    runs=${RUNS:-$(recipe "$lesson" runs)}
    reference=$(recipe "$lesson" reference)
    for i in $(seq "$runs"); do
      if [ $((i % 2)) -eq 1 ]; then
        cxx "$lesson" "$gpu-cxx" -- "$cxx_bin"
        rust "$lesson" "$gpu-rust" -- "$rust_bin"
      else
        rust "$lesson" "$gpu-rust" -- "$rust_bin"
        cxx "$lesson" "$gpu-cxx" -- "$cxx_bin"
      fi
      if [ -n "$reference" ]; then
        read -ra ref <<<"$reference"
        (cd "code/$lesson" && EVIDENCE_RUNTIME="the tool's own" record "$lesson" "$gpu-${ref[0]}" -- "${ref[@]:1}")
      fi
    done
    # variant NAME RUNS [VAR=value ...] [-- ARG ...]
    while read -r name count rest; do
      [ -n "$name" ] || continue
      read -ra words <<<"$rest"
      assignments=() args=() seen_dashes=0
      for w in "${words[@]}"; do
        if [ "$seen_dashes" = 1 ]; then args+=("$w");
        elif [ "$w" = -- ]; then seen_dashes=1;
        else assignments+=("$w"); fi
      done
      for _ in $(seq "$count"); do
        cxx "$lesson" "$gpu-cxx-$name" "${assignments[@]}" -- "$cxx_bin" "${args[@]}"
        rust "$lesson" "$gpu-rust-$name" "${assignments[@]}" -- "$rust_bin" "${args[@]}"
      done
    done < <(recipe "$lesson" variant)
    ;;
  toolkit)
    next=.evidence-bin/cuda-13.5
    # Read once per session: the 13.5 runtime as a probe built with it sees
    # this driver, and the compiler that built the 13.5 programs.
    : "${next_runtime:=$("$next/cuda-versions") (static cudart of the provisioned CUDA 13.5 wheels)}"
    : "${next_nvcc:=$(cat "$next/nvcc-version")}"
    # cuda13.5 <lesson> <name> -- <command ...>: as cxx and rust, for a
    # program built with CUDA 13.5, whose compiler is not the nvcc here.
    cuda13.5() { EVIDENCE_RUNTIME=$next_runtime EVIDENCE_NVCC=$next_nvcc record "$@"; }
    for i in $(seq "${RUNS:-3}"); do
      cxx "$lesson" "$gpu-cxx" -- "$cxx_bin"
      cuda13.5 "$lesson" "$gpu-cxx-cuda13.5" -- "$next/$lesson/$(recipe "$lesson" binary)"
      rust "$lesson" "$gpu-rust" -- "$rust_bin"
      cuda13.5 "$lesson" "$gpu-rust-cuda13.5" -- "$next/$lesson/$lesson"
    done
    # The newest transcript of a program (name ending -<gpu>-<program>).
    newest_of() { find "$ev/$lesson" -name "*-$gpu-$1.txt" | sort | tail -n 1; }
    for program in cxx rust; do
      record diagnostics "$gpu-$lesson-$program-cuda13.5-report-diff" -- \
        ci/report-diff.sh "$(newest_of "$program")" "$(newest_of "$program-cuda13.5")"
    done
    ;;
  checks)
    for tool in $(recipe "$lesson" sanitizer); do
      cxx "$lesson" "$gpu-cxx-$tool" -- timeout "${SANITIZER_TIMEOUT:-60}" compute-sanitizer --tool "$tool" "$cxx_bin"
      rust "$lesson" "$gpu-rust-$tool" -- timeout "${SANITIZER_TIMEOUT:-60}" compute-sanitizer --tool "$tool" "$rust_bin"
    done
    ;;
  *)
    script="code/$lesson/tools/gpu-phases/$phase.sh"
    if [ -f "$script" ]; then
      phases_found=$((phases_found + 1))
      # shellcheck source=/dev/null
      source "$script"
    fi
    ;;
  esac
done
case "$phase" in runs | checks | toolkit | machine) ;; *)
  if [ "$phases_found" -eq 0 ]; then
    echo "error: no lesson has a phase '$phase' (code/<lesson>/tools/gpu-phases/$phase.sh)" >&2
    exit 1
  fi
  ;;
esac
if [ "$phase" = checks ]; then
  # The GPU tests run the lessons' binaries from .evidence-bin, not from a
  # cargo target directory, which this machine has none of.
  export LESSON_BIN_DIR=$PWD/.evidence-bin
  # Tests named on_two_gpus_* need a second device; on a one-GPU machine
  # they are skipped by name, and the listing in the transcript says so.
  skip=()
  [ "$(nvidia-smi -L | wc -l)" -ge 2 ] || skip=(--skip on_two_gpus)
  for t in .evidence-bin/tests/*; do
    rust gpu-tests "$gpu-$(basename "$t")" -- "$t" --ignored --test-threads=1 "${skip[@]}"
  done
fi
for f in "$ev"/*/*.txt; do
  [ -f "$f" ] && printf '%-60s %s\n' "$f" "$(grep '^# exit code' "$f")"
done
"$evidence" --evidence "$ev" check | tail -n 3 || true
tar -czf "$out/evidence.tar.gz" -C "$out" evidence
