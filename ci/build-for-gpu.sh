#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Builds, on a machine with Rust, everything ci/gpu-session.sh runs on a GPU
# machine without Rust, into .evidence-bin/ (git-ignored; carry it there):
#   every lesson's Rust binary, the evidence recorder, the instrument's
#   kernel suite, the GPU-only test
#   binaries (run there with --ignored), ci/cuda-versions.cu built with the
#   toolkit they link, and each lesson's C++ program built with its recipe's
#   nvcc line by that toolkit and this host's compiler
#   (<lesson>-cxx-hostbuilt, for same-compiler comparisons).
# The lessons come from `evidence lessons`; no lesson is named here.
set -euo pipefail
cd "$(dirname "$0")/.."
toolkit=$(ci/provision.sh)
rm -rf .evidence-bin
mkdir -p .evidence-bin/tests
cargo build --release --workspace --quiet
cp target/release/evidence .evidence-bin/
# The instrument's kernel suite, which its GPU test runs.
cp target/release/instrument-suite .evidence-bin/
for lesson in $(target/release/evidence lessons); do
  cp "target/release/$lesson" .evidence-bin/
  read -ra line <<<"$(target/release/evidence recipe "$lesson" | sed -n 's/^nvcc //p')"
  binary=$(target/release/evidence recipe "$lesson" | sed -n 's/^binary //p')
  dir=$(mktemp -d)
  cp -r "code/$lesson/." "$dir/"
  (cd "$dir" && "$toolkit/bin/${line[0]}" "${line[@]:1}")
  cp "$dir/$binary" ".evidence-bin/$lesson-cxx-hostbuilt"
done
"$toolkit/bin/nvcc" -o .evidence-bin/cuda-versions-rust ci/cuda-versions.cu
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
