#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The project's test command (README.md), run by CI as it is. On a fresh
# x86-64 Debian machine with Rust and Python it provisions the CUDA
# compilers and libclang itself (ci/provision.sh), actionlint
# (ci/provision-actionlint.sh) and Chromium with chromedriver
# (ci/provision-browser.sh), then runs, in order:
# formatting, clippy with warnings as errors, every test (the course's rule
# checks among them), and the build of every lesson with the newest CUDA 13
# on PyPI as well as the pinned 13.0. No GPU is needed; tests that need one
# say so and are left to ci/gpu-session.sh on the GPU machine.
set -euo pipefail
cd "$(dirname "$0")/.."

ci/provision.sh >/dev/null
# The workflows are held to actionlint (crates/workflows).
ci/provision-actionlint.sh >/dev/null
# site-check's tests, and the evidence site's, drive a real headless Chromium.
ci/provision-browser.sh
newest=$(ci/provision.sh 13.5 | tail -n 1)

echo "== cargo fmt --check"
cargo fmt --all --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets --quiet -- -D warnings

echo "== CUDA 13.5: every lesson copied alone, built with its nvcc line"
cargo run --quiet -p course-rules -- check --nvcc "$newest/bin/nvcc"

echo "== CUDA 13.5: every lesson's Rust twin (LESSON_NVCC)"
# An explicit --target gives these builds a folder of their own under
# target/, so the 13.0 builds the tests use are not rebuilt after them;
# build scripts and proc macros are shared.
host=$(rustc -vV | sed -n 's/^host: //p')
mapfile -t lessons < <(cargo run --quiet -p evidence -- lessons)
LESSON_NVCC="$newest/bin/nvcc" cargo build --quiet --target "$host" \
  "${lessons[@]/#/--package=}"

echo "== tests"
# nextest ends with one summary line for the whole workspace; plain cargo
# test is the fallback where it is not installed.
if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --no-fail-fast
else
  cargo test --workspace --no-fail-fast
fi
