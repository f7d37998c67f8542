#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Stages what suite-session.sh needs on the GPU machine into a checkout
# ROOT (the one the device call copies): ROOT/.gpu-bench/instrument-suite,
# built here in release and stripped, and the wheels in ROOT/.whl. Prints
# their sizes, which the device call's carry (64 MiB in all) must hold.
# Usage: stage.sh ROOT   (run from this repository's root)
set -euo pipefail
root=${1:?usage: stage.sh ROOT}
target=${CARGO_TARGET_DIR:-target}
cargo build --release -p instrument --bin instrument-suite
mkdir -p "$root/.gpu-bench"
strip -o "$root/.gpu-bench/instrument-suite" "$target/release/instrument-suite"
[ -n "$(ls "$root"/.whl/cuda_bench-*.whl 2> /dev/null)" ] || "$(dirname "$0")/fetch-wheels.sh" "$root/.whl"
du -sh "$root/.gpu-bench" "$root/.whl"
