#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The project's test command (README.md), run by CI as it is. On a fresh
# x86-64 Debian machine with Rust and Python it provisions the CUDA
# compilers and libclang itself (ci/provision.sh), actionlint
# (ci/provision-actionlint.sh) and Chromium with chromedriver
# (ci/provision-browser.sh), then runs, in order:
# formatting, the build of every target with clippy's lints as errors,
# every lesson built with the newest CUDA 13 on PyPI as well as the pinned
# 13.0, and every test (the course's rule checks among them). No GPU is
# needed; tests that need one say so and are left to ci/gpu-session.sh on
# the GPU machine.
#
# Each phase prints its wall time when it ends, and the last lines list
# them all, so that a phase that grows is seen the day it lands.
set -euo pipefail
cd "$(dirname "$0")/.."
# No incremental compilation: each build here starts from nothing (a fresh
# clone), or finds everything fresh (a second run), or builds throwaway
# copies (the export test's), and incremental's caches only cost the
# writing. It changes how rustc works, never what it makes.
export CARGO_INCREMENTAL=0
# Every scratch file of this run (the tests' copies of the lessons, nvcc's
# intermediates) goes in one folder, removed when the script ends however
# it ends: scratch that piled up in /tmp over many runs of tests stopped
# early once filled the disk, and CI failed in its first step.
# Its mode is /tmp's: tests run as root hand folders in it to `nobody`.
TMPDIR=$(mktemp -d)
chmod 1777 "$TMPDIR"
export TMPDIR

timings=()
phase_start=
phase_name=
# Ends the running phase (if any), saying how long it took, and starts the
# next one. $EPOCHREALTIME times this script's own steps, never GPU work
# (ci/host-clock-allow.txt).
phase() {
  local now=${EPOCHREALTIME/[.,]/}
  if [[ -n $phase_name ]]; then
    local ms=$(((now - phase_start) / 1000))
    local took
    took=$(printf '%d.%01d s' $((ms / 1000)) $((ms % 1000 / 100)))
    echo "   ($phase_name: $took)"
    timings+=("$(printf '%8s  %s' "$took" "$phase_name")")
  fi
  phase_name=${1:-}
  phase_start=$now
  [[ -z $phase_name ]] || echo "== $phase_name"
}
# The table, also when a phase fails and ends the script.
report_timings() {
  rm -rf "$TMPDIR"
  phase
  echo "== wall time per phase"
  printf '%s\n' "${timings[@]}"
}
trap report_timings EXIT

# Runs "$@" in the background with its output kept in a log, so that
# downloads go on beside compiling; `finish` waits for it and shows the log
# only when it failed.
declare -A jobs=()
background() {
  local name=$1 log
  shift
  log=$(mktemp)
  "$@" >"$log" 2>&1 &
  jobs[$name]="$! $log"
}
finish() {
  local name=$1 pid log
  read -r pid log <<<"${jobs[$name]}"
  if ! wait "$pid"; then
    echo "error: $name failed:" >&2
    cat "$log" >&2
    exit 1
  fi
  rm -f "$log"
}

phase "provisioning, and the crates downloaded beside it"
# The build needs CUDA 13.0 and libclang (build scripts run nvcc and
# bindgen); the crates come down meanwhile.
host=$(rustc -vV | sed -n 's/^host: //p')
background crates cargo fetch --locked --target "$host"
ci/provision.sh >/dev/null
finish crates
# What only later phases need comes down while the workspace compiles. One
# job, in order: both apt installs (libclang's above, Chromium's here)
# take dpkg's lock, so they never run at once.
later() {
  ci/provision-browser.sh
  ci/provision.sh 13.5
  # The workflows are held to actionlint (crates/xtask/tests/it/workflows.rs).
  ci/provision-actionlint.sh
}
background "the browser, CUDA 13.5 and actionlint" later

phase "cargo fmt --check"
cargo fmt --all --check

phase "build of every target, clippy's lints as errors"
# One compile does both: clippy-driver, as the workspace's wrapper (what
# `cargo clippy` itself sets), lints each workspace crate while it builds
# it, so the lints need no check build of their own. The same wrapper and
# lint flags stay set for every later cargo call (the tests' own included),
# so nothing built here is built again for being built another way.
RUSTC_WORKSPACE_WRAPPER=$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver || true)
if [[ ! -x $RUSTC_WORKSPACE_WRAPPER ]]; then
  echo "error: clippy-driver not found; run: rustup component add clippy" >&2
  exit 1
fi
CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
export RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
if cargo nextest --version >/dev/null 2>&1; then
  nextest=1
  cargo nextest run --workspace --all-targets --no-run --locked
else
  nextest=
  cargo test --workspace --all-targets --no-run --locked
fi
# The GPU machine's evidence binary leaves the site out (ci/build-for-gpu.sh);
# built and linted here too, so that variant keeps compiling.
cargo build --quiet --locked -p evidence --no-default-features

finish "the browser, CUDA 13.5 and actionlint"
newest=$(readlink -f .toolchain/cuda-13.5)

phase "CUDA 13.5: every lesson copied alone, built with its nvcc line"
cargo xtask check --nvcc "$newest/bin/nvcc"

phase "CUDA 13.5: every lesson's Rust twin (LESSON_NVCC)"
# LESSON_NVCC changes what the workspace's own crates that compile CUDA
# (those with cuda-build as a build dependency: cuda-check, the lessons,
# the instrument suite) and the workspace crates above them are built from.
# Built in place, they would overwrite the 13.0 artifacts the tests use,
# and each run would build both twice. A profile value that changes nothing
# a program does (255 codegen units instead of 256) gives exactly those
# crates artifacts of their own beside the 13.0 ones, while every other
# crate, the registry's and the workspace's that no toolkit changes (the
# report crates, lesson-spec, ...), is shared; a second run finds both sets
# fresh. (An explicit --target did the same by building every crate a
# second time.)
mapfile -t lessons < <(cargo run --quiet -p evidence -- lessons)
mapfile -t toolkit_built < <(cargo metadata --format-version 1 --locked | python3 -c '
import json, sys
meta = json.load(sys.stdin)
members = set(meta["workspace_members"])
package = {p["id"]: p for p in meta["packages"]}
node = {n["id"]: n for n in meta["resolve"]["nodes"]}
compiles_cuda = {m for m in members if any(
    d["name"] == "cuda-build" and d["kind"] == "build" for d in package[m]["dependencies"])}
memo = {}
def built_by_toolkit(m):
    if m not in memo:
        memo[m] = False
        memo[m] = m in compiles_cuda or any(
            built_by_toolkit(d["pkg"]) for d in node[m]["deps"]
            if d["pkg"] in members and any(k["kind"] in (None, "build") for k in d["dep_kinds"]))
    return memo[m]
print(*sorted(package[m]["name"] for m in members if built_by_toolkit(m)), sep="\n")')
own_artifacts=()
for member in "${toolkit_built[@]}"; do
  own_artifacts+=(--config "profile.dev.package.$member.codegen-units=255")
done
# For one architecture (sm_90): this phase proves each Rust twin compiles
# and links with 13.5's nvcc and runtime; that every lesson's .cu builds
# for each of the three architectures with 13.5 is the phase before's.
LESSON_NVCC="$newest/bin/nvcc" LESSON_CUDA_ARCHS=90 cargo build --quiet --locked "${own_artifacts[@]}" \
  "${lessons[@]/#/--package=}"

phase "tests"
# nextest ends with one summary line for the whole workspace; plain cargo
# test is the fallback where it is not installed.
if [[ -n $nextest ]]; then
  cargo nextest run --workspace --all-targets --no-fail-fast --locked
else
  cargo test --workspace --all-targets --no-fail-fast --locked
fi
