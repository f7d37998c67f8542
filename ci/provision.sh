#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Provisions what building the workspace needs on a machine without a CUDA
# toolkit: a CUDA compiler (pinned PyPI wheels) and libclang for bindgen.
# Each compiler goes into the project's git-ignored .toolchain/ folder;
# libclang comes from Debian (libclang1-14 and its headers, which bindgen
# needs for stddef.h), installed with apt when it is missing.
#
#   13.0 (the default)  .toolchain/cuda, the toolkit every build finds
#   13.5                .toolchain/cuda-13.5, the newest CUDA 13 on PyPI, which
#                       CI builds every lesson with too (ci/test.sh)
#
# Both need an NVIDIA driver of the 580 series or newer to run what they
# build; on a machine with an older one this says so in one line (and goes
# on: building and testing need no driver).
#
# Idempotent: a second run checks a stamp file, and that the link the build
# finds leads to an nvcc, and returns in well under a second. A stamp whose
# link no longer leads anywhere (the toolkit moved or was deleted) is not
# trusted: the compiler is installed again. Prints the toolkit root on its
# last line.
#
# Usage: ci/provision.sh [13.0|13.5]
set -euo pipefail

# The physical path: a link the checkout was reached through may go away,
# and .toolchain/cuda must not point through it.
root=$(cd "$(dirname "$0")/.." && pwd -P)
tc="$root/.toolchain"
version=${1:-13.0}
# Pinned together: an unpinned nvidia-nvvm pulls a newer NVVM beside the
# nvcc it belongs to. PyPI has no 13.5 CCCL; its newest (13.3) serves 13.5.
case $version in
13.0)
  wheels=(nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 nvidia-cuda-crt==13.0.88
    nvidia-cuda-runtime==13.0.88 nvidia-cuda-cccl==13.0.85 nvidia-nvtx==13.0.85)
  link="$tc/cuda"
  ;;
13.5)
  wheels=(nvidia-cuda-nvcc==13.5.37 nvidia-nvvm==13.5.37 nvidia-cuda-crt==13.5.37
    nvidia-cuda-runtime==13.5.37 nvidia-cuda-cccl==13.3.5.0.6 nvidia-nvtx==13.5.25)
  link="$tc/cuda-13.5"
  ;;
*)
  echo "error: ci/provision.sh provisions CUDA 13.0 or 13.5, not '$version'" >&2
  exit 2
  ;;
esac

source "$root/ci/driver.sh"
if message=$(driver_too_old_for 13); then
  echo "note: $message" >&2
fi

home="$tc/$version"
stamp="$home/provisioned-$(printf '%s\n' "${wheels[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ] || [ ! -x "$link/bin/nvcc" ]; then
  echo "provision: installing the CUDA $version compiler into $home" >&2
  rm -rf "$home"
  mkdir -p "$home"
  python3 -m venv "$home/venv"
  "$home/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-cache-dir "${wheels[@]}"
  cuda="$(echo "$home"/venv/lib/python3*/site-packages/nvidia/cu13)"
  # nvcc's own link profile searches lib64/; the wheels ship lib/ only.
  ln -sfn lib "$cuda/lib64"
  # A stable path the build looks for, whatever the Python minor version is.
  ln -sfn "$cuda" "$link"
  "$link/bin/nvcc" --version | tail -n 2 >&2
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
echo "$link"
