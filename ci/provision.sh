#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Provisions what building the workspace needs on a machine without a CUDA
# toolkit: the CUDA 13.0 compiler (pinned PyPI wheels) and libclang for
# bindgen. The compiler goes into the project's git-ignored .toolchain/
# folder; libclang comes from Debian (libclang1-14 and its headers, which
# bindgen needs for stddef.h), installed with apt when it is missing.
#
# Idempotent: a second run checks a stamp file and returns in well under a
# second. Prints the toolkit root on its last line.
#
# Usage: ci/provision.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
tc="$root/.toolchain"
venv="$tc/venv"
# Pinned together: an unpinned nvidia-nvvm pulls a newer NVVM beside nvcc 13.0.
wheels=(
  nvidia-cuda-nvcc==13.0.88
  nvidia-nvvm==13.0.88
  nvidia-cuda-crt==13.0.88
  nvidia-cuda-runtime==13.0.88
  nvidia-cuda-cccl==13.0.85
  nvidia-nvtx==13.0.85
)
stamp="$tc/provisioned-$(printf '%s\n' "${wheels[@]}" | sha256sum | cut -c1-16)"

if [ ! -f "$stamp" ]; then
  echo "provision: installing the CUDA 13.0 compiler into $tc" >&2
  rm -rf "$tc"
  mkdir -p "$tc"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-cache-dir "${wheels[@]}"
  cuda="$(echo "$venv"/lib/python3*/site-packages/nvidia/cu13)"
  # nvcc's own link profile searches lib64/; the wheels ship lib/ only.
  ln -sfn lib "$cuda/lib64"
  # Stable paths the build looks for, whatever the Python minor version is.
  ln -sfn "$cuda" "$tc/cuda"
  "$tc/cuda/bin/nvcc" --version | tail -n 2 >&2
  touch "$stamp"
fi

# libclang with its resource headers, for bindgen (ours and nvtx-sys's).
if ! compgen -G "/usr/lib/llvm-*/lib/clang/*/include/stddef.h" >/dev/null ||
  ! compgen -G "/usr/lib/llvm-*/lib/libclang*.so*" >/dev/null; then
  pkgs=(libclang1-14 libclang-common-14-dev)
  if [ "$(id -u)" -ne 0 ]; then
    echo "error: bindgen needs libclang; run: sudo apt-get install ${pkgs[*]}" >&2
    exit 1
  fi
  echo "provision: installing ${pkgs[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null 2>&1 ||
    { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${pkgs[@]}" >/dev/null; }
fi
echo "$tc/cuda"
