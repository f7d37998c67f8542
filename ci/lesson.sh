#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds and runs one lesson's Rust binary: the README's run command.
#
# Usage: ci/lesson.sh <lesson> [lesson flags]     a directory under code/
#
# Needs Rust and an NVIDIA GPU with its driver. Uses the CUDA toolkit the
# build finds (crates/cuda-build/src/toolkit.rs gives the order), and
# provisions the project's own CUDA 13.0 compiler first when there is none.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ $# -lt 1 ] || [ ! -d "code/$1" ]; then
  echo "error: name a lesson: $(cd code && ls -d -- */ | tr -d / | tr "\n" " ")" >&2
  exit 1
fi
lesson=$1
shift

if [ -z "${LESSON_NVCC:-}${CUDA_HOME:-}${CUDA_PATH:-}" ] && ! command -v nvcc >/dev/null &&
  [ ! -x /usr/local/cuda/bin/nvcc ]; then
  ci/provision.sh >/dev/null
fi
exec cargo run --release --quiet -p "$lesson" -- "$@"
