#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Stages what suite-session.sh needs on the GPU machine into a checkout
# ROOT (the one the device call copies), where ci/build-for-gpu.sh has not
# already: ROOT/.evidence-bin/instrument-suite and ROOT/.evidence-bin/evidence
# (the recorder of its transcripts), built here in release and stripped, and
# the wheels in ROOT/.whl. Prints their sizes, which the device call's carry
# (64 MiB in all) must hold.
# Usage: stage.sh ROOT   (run from this repository's root)
set -euo pipefail
root=${1:?usage: stage.sh ROOT}
target=${CARGO_TARGET_DIR:-target}
cargo build --release -p instrument-suite --bin instrument-suite -p evidence --bin evidence
mkdir -p "$root/.evidence-bin"
for b in instrument-suite evidence; do strip -o "$root/.evidence-bin/$b" "$target/release/$b"; done
[ -n "$(ls "$root"/.whl/cuda_bench-*.whl 2> /dev/null)" ] || "$(dirname "$0")/fetch-wheels.sh" "$root/.whl"
du -sh "$root/.evidence-bin" "$root/.whl"
