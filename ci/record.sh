#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Records one run of a lesson program as an evidence transcript: a metadata
# header, the program's output exactly as it printed it (stdout and stderr in
# the order written), and its exit code. Never overwrites: a name already
# taken gets a number. A failing run is recorded as failing.
#
# Usage: ci/record.sh <evidence-dir> <lesson> <name> [VAR=value ...] -- <command ...>
#   e.g. ci/record.sh evidence day09-timing h200-cxx CUDA_MODULE_LOADING=EAGER -- ./timing
#
# Writes <evidence-dir>/<lesson>/<UTC start time>-<name>.txt and prints its path.
# EVIDENCE_COMMIT names the git commit when the tree has no .git (the GPU
# machine receives a copy of the working tree without history).
set -uo pipefail

if [ $# -lt 5 ]; then
  echo "usage: ci/record.sh <evidence-dir> <lesson> <name> [VAR=value ...] -- <command ...>" >&2
  exit 2
fi
dir=$1 lesson=$2 name=$3
shift 3
envs=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
  case "$1" in
    *=*) envs+=("$1") ;;
    *) echo "error: expected VAR=value or --, got '$1'" >&2; exit 2 ;;
  esac
  shift
done
[ "${1:-}" = "--" ] || { echo "error: missing -- before the command" >&2; exit 2; }
shift
[ $# -gt 0 ] || { echo "error: no command to record" >&2; exit 2; }

mkdir -p "$dir/$lesson"
# Named by the start time, so runs recorded on different machines or days
# never collide when their folders are merged into evidence/.
start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
stamp=$(echo "$start" | tr -d ':')
file="$dir/$lesson/$stamp-$name.txt"
n=2
while [ -e "$file" ]; do
  file="$dir/$lesson/$stamp-$name-$n.txt"
  n=$((n + 1))
done

gpu=$(nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader -i 0 2>/dev/null | head -n 1)
IFS=',' read -r gpu_name gpu_cc gpu_driver <<<"$gpu"
commit=${EVIDENCE_COMMIT:-$(git rev-parse HEAD 2>/dev/null || echo unknown)}
nvcc_version=$(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*, V[0-9.]*' || echo "not found")
cuda_driver=$(nvidia-smi 2>/dev/null | grep -o 'CUDA Version: [0-9.]*' | head -n 1 | cut -d' ' -f3)

output=$(mktemp)
env "${envs[@]}" "$@" >"$output" 2>&1
code=$?

{
  echo "# lesson: $lesson"
  echo "# date: $start"
  echo "# gpu: $(echo "$gpu_name" | xargs) (compute capability $(echo "$gpu_cc" | xargs))"
  echo "# driver: $(echo "$gpu_driver" | xargs) (CUDA ${cuda_driver:-unknown})"
  echo "# cuda runtime: ${EVIDENCE_RUNTIME:-unknown}"
  echo "# nvcc: $nvcc_version"
  echo "# host: $(uname -srm), $(nproc) cores"
  echo "# command: $*"
  echo "# environment: ${envs[*]:-(nothing that changes behaviour)}"
  echo "# commit: $commit"
  echo "# exit code: $code"
  echo "# ---"
  cat "$output"
} >"$file"
rm -f "$output"
echo "$file"
exit 0
