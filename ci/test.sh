#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The project's test command (README.md), run by CI as it is. On a fresh
# x86-64 Debian machine with Rust and Python it provisions the CUDA compiler
# and libclang itself (ci/provision.sh), then runs, in order: formatting,
# clippy with warnings as errors, the course's rule checks, and every test.
# No GPU is needed; tests that need one say so and are left to
# ci/gpu-session.sh on the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."

ci/provision.sh >/dev/null

echo "== cargo fmt --check"
cargo fmt --all --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== tests"
# nextest ends with one summary line for the whole workspace; plain cargo
# test is the fallback where it is not installed.
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast
else
  cargo test --workspace --no-fail-fast
fi
