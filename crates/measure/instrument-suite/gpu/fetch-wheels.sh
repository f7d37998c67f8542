#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Downloads, on a machine with network, the CPython 3.12 wheels nvbench's
# Python package needs on the GPU machine (which reaches no registry):
# cuda-bench 0.3.0, cuda-bindings 13.0.x, cuda-pathfinder and tabulate (for
# nvbench's compare script). Prints each
# wheel's size and the total, which must stay well under the 64 MiB a device
# call carries. Usage: fetch-wheels.sh DIR
set -euo pipefail
dir=${1:?usage: fetch-wheels.sh DIR}
mkdir -p "$dir"
fetch() { # PLATFORM SPEC
  python3 -m pip download --quiet --no-deps --dest "$dir" --python-version 3.12 \
    --only-binary=:all: --platform "$1" "$2"
}
fetch manylinux_2_27_x86_64 "cuda-bench==0.3.0"
fetch manylinux_2_28_x86_64 "cuda-bindings>=13.0,<13.1"
fetch manylinux_2_28_x86_64 "cuda-pathfinder"
# nvbench_compare.py (in the cuda-bench wheel) prints its tables with tabulate.
fetch manylinux_2_28_x86_64 "tabulate"
ls -l "$dir"/*.whl | awk '{ printf "%10d  %s\n", $5, $NF; total += $5 } END { printf "%10d  total (%.1f MiB)\n", total, total / 1048576 }'
