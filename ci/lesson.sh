#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds and runs one lesson's Rust binary: the README's run command.
#
# Usage: ci/lesson.sh <lesson> [lesson flags]     a directory under code/
#
# Needs Rust and an NVIDIA GPU with its driver. Uses the CUDA toolkit the
# build finds (crates/course/cuda-build/src/toolkit.rs gives the order), and
# provisions the project's own CUDA 13.0 compiler first when there is none,
# unless the driver is too old to run what it builds (ci/driver.sh): then it
# says so in one line, with the two ways out, and builds nothing.
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
  # No toolkit of the learner's: the build will use the project's CUDA 13.0,
  # whose programs an older driver cannot run. Say so before building.
  source ci/driver.sh
  if message=$(driver_too_old_for 13); then
    echo "error: $message" >&2
    exit 1
  fi
  ci/provision.sh >/dev/null
fi
exec cargo run --release --quiet -p "$lesson" -- "$@"
