#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds, on a machine with Rust, everything ci/gpu-session.sh runs on a GPU
# machine without Rust, into .evidence-bin/ (git-ignored; carry it there):
#   every lesson's Rust binary, `evidence` (its GPU build), the instrument's
#   kernel suite, the GPU-only test
#   binaries (run there with --ignored), ci/cuda-versions.cu built with the
#   toolkit they link, and each lesson's C++ program built with its recipe's
#   nvcc line by that toolkit and this host's compiler
#   (<lesson>-cxx-hostbuilt, for same-compiler comparisons); and, in
#   .evidence-bin/cuda-13.5/, every lesson's Rust binary and C++ program
#   built with the newest CUDA 13 on PyPI, with its own cuda-versions probe,
#   for the `toolkit` phase (a newer toolkit's programs on the GPU machine's
#   older 13.x driver).
# The lessons come from `evidence lessons`; no lesson is named here.
set -euo pipefail
cd "$(dirname "$0")/.."
toolkit=$(ci/provision.sh)
rm -rf .evidence-bin
mkdir -p .evidence-bin/tests
cargo build --release --workspace --quiet
# The instrument's kernel suite (crates/measure/instrument-suite), which its GPU test
# (instrument-suite-on_gpu) runs.
cp target/release/instrument-suite .evidence-bin/
# kernel-timer and the instrument's cudarc example, which
# crates/measure/kernel-timer/gpu/session.sh runs.
cp target/release/kernel-timer .evidence-bin/
cargo build --release --quiet -p instrument --example cudarc_launch
cp target/release/examples/cudarc_launch .evidence-bin/
# `evidence` without its default feature `site`: no site, charts or figure
# blocks, so it carries no HTML or plotting code. Built last of the
# release builds above, it is the one this script runs from here on too.
cargo build --release --quiet -p evidence --no-default-features
cp target/release/evidence .evidence-bin/evidence
evidence=.evidence-bin/evidence
mapfile -t lessons < <("$evidence" lessons)

# build_alone <toolkit> <lesson> <output>: the lesson's C++ program built as
# a learner builds it (`evidence build-alone`: its directory copied alone and
# its recipe's nvcc line run there) with the toolkit's nvcc.
build_alone() {
  cp "$("$evidence" build-alone --lesson "$2" --nvcc "$1/bin/nvcc")" "$3"
}

for lesson in "${lessons[@]}"; do
  cp "target/release/$lesson" .evidence-bin/
  build_alone "$toolkit" "$lesson" ".evidence-bin/$lesson-cxx-hostbuilt"
done
"$toolkit/bin/nvcc" -o .evidence-bin/cuda-versions-rust ci/cuda-versions.cu

# The same lessons built with CUDA 13.5. An explicit --target keeps these
# builds in a folder of their own, so the 13.0 ones above are not rebuilt.
newest=$(ci/provision.sh 13.5 | tail -n 1)
host=$(rustc -vV | sed -n 's/^host: //p')
LESSON_NVCC="$newest/bin/nvcc" cargo build --release --quiet --target "$host" \
  "${lessons[@]/#/--package=}"
# Each lesson's pair in a folder of its own, the C++ program under its own
# name, so its transcripts' commands name the program they ran.
for lesson in "${lessons[@]}"; do
  mkdir -p ".evidence-bin/cuda-13.5/$lesson"
  cp "target/$host/release/$lesson" ".evidence-bin/cuda-13.5/$lesson/"
  binary=$("$evidence" recipe --lesson "$lesson" | sed -n 's/^binary //p')
  build_alone "$newest" "$lesson" ".evidence-bin/cuda-13.5/$lesson/$binary"
done
"$newest/bin/nvcc" -o .evidence-bin/cuda-13.5/cuda-versions ci/cuda-versions.cu
"$newest/bin/nvcc" --version | tail -n 2 | head -n 1 >.evidence-bin/cuda-13.5/nvcc-version
# The integration tests named on_gpu hold the tests that need a GPU.
cargo test --release --workspace --no-run --message-format=json --quiet 2>/dev/null |
  python3 -c '
import json, sys, shutil
for line in sys.stdin:
    msg = json.loads(line)
    exe = msg.get("executable")
    if exe and msg.get("target", {}).get("name") == "on_gpu":
        pkg = msg["package_id"].split("#")[0].rstrip("/").split("/")[-1]
        shutil.copy(exe, f".evidence-bin/tests/{pkg}-on_gpu")
        print(f".evidence-bin/tests/{pkg}-on_gpu")
'
# The layout gpu-session.sh reads checked, the ELF files stripped of their
# debug sections, and the folder listed.
ci/finish-evidence-bin.sh .evidence-bin
