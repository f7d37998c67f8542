#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds, on a machine with Rust, everything ci/gpu-session.sh runs on a GPU
# machine without Rust, into .evidence-bin/ (git-ignored; carry it there):
#   the lesson binaries, the evidence recorder, the GPU-only test binaries
#   (run there with --ignored), ci/cuda-versions.cu built with the toolkit
#   they link, and Day 9's timing.cu built by that toolkit and this host's
#   compiler.
set -euo pipefail
cd "$(dirname "$0")/.."
toolkit=$(ci/provision.sh)
rm -rf .evidence-bin
mkdir -p .evidence-bin/tests
cargo build --release --workspace --quiet
cp target/release/day09-timing target/release/day53-pinned target/release/evidence .evidence-bin/
"$toolkit/bin/nvcc" -o .evidence-bin/cuda-versions-rust ci/cuda-versions.cu
# Day 9's C++ program built here too, by the same nvcc and host compiler that
# built the Rust twin's copy of timing.cu, for ci/gpu-session.sh same-compiler.
(cd code/day09-timing && "$toolkit/bin/nvcc" -std=c++17 -O3 -arch=sm_90 -o ../../.evidence-bin/timing timing.cu)
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
# Debug sections are most of each file and travel to the GPU machine within a
# size limit; the code and its symbols stay.
find .evidence-bin -type f -exec strip --strip-debug {} +
du -sh .evidence-bin
ls .evidence-bin .evidence-bin/tests
