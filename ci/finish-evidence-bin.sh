#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# The last steps of ci/build-for-gpu.sh, on its folder (.evidence-bin/):
# checks that the folder holds everything ci/gpu-session.sh reads from it,
# strips the debug sections from its ELF files (and from nothing else: the
# folder holds text files too, such as cuda-13.5/nvcc-version, which strip
# refuses), then prints what it stripped, the folder's size and its files.
# Its own script so that it is tested on a planted folder without a GPU or
# a build (crates/xtask/tests/it/ci_scripts.rs).
#
# The layout, each lesson's names read from the folder's own `evidence`
# (`evidence lessons`, `evidence recipe --lesson L`), as gpu-session.sh reads
# them:
#   evidence, instrument-suite, cuda-versions-rust
#   <lesson>, <lesson>-cxx-hostbuilt                      for every lesson
#   tests/<package>-on_gpu                                at least one
#   cuda-13.5/cuda-versions, cuda-13.5/nvcc-version
#   cuda-13.5/<lesson>/<lesson>, cuda-13.5/<lesson>/<recipe's binary>
#
# Usage: ci/finish-evidence-bin.sh DIR
# Exits 1, naming each missing file, when the layout is incomplete (nothing
# is stripped then); 1 when strip fails on an ELF file.
set -euo pipefail
dir=${1:?usage: ci/finish-evidence-bin.sh DIR}

missing=()
need() { [ -f "$dir/$1" ] || missing+=("$1"); }
for f in evidence instrument-suite cuda-versions-rust cuda-13.5/cuda-versions cuda-13.5/nvcc-version; do
  need "$f"
done
if [ -x "$dir/evidence" ]; then
  mapfile -t lessons < <("$dir/evidence" lessons)
  [ ${#lessons[@]} -gt 0 ] || missing+=("(any lesson: \`evidence lessons\` names none)")
  for lesson in "${lessons[@]}"; do
    binary=$("$dir/evidence" recipe --lesson "$lesson" | sed -n 's/^binary //p')
    need "$lesson"
    need "$lesson-cxx-hostbuilt"
    need "cuda-13.5/$lesson/$lesson"
    need "cuda-13.5/$lesson/${binary:-(the recipe names no binary)}"
  done
fi
compgen -G "$dir/tests/*-on_gpu" >/dev/null || missing+=("tests/<package>-on_gpu")
if [ ${#missing[@]} -gt 0 ]; then
  for f in "${missing[@]}"; do
    echo "error: $dir lacks $f" >&2
  done
  exit 1
fi

# Debug sections are most of each binary and travel to the GPU machine
# within a size limit; the code and its symbols stay.
is_elf() { [ "$(head -c 4 "$1" | od -An -c | tr -d ' ')" = '177ELF' ]; }
while IFS= read -r -d '' f; do
  if is_elf "$f"; then
    strip --strip-debug "$f"
    echo "stripped ${f#"$dir"/}"
  fi
done < <(find "$dir" -type f -print0 | LC_ALL=C sort -z)
du -sh "$dir"
(cd "$dir" && find . -type f | sed "s|^\./||" | LC_ALL=C sort)
