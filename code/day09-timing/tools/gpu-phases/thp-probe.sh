#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# How each Day 9 program's host memory is backed: starts the program, waits
# until its host buffers are allocated and filled, and reads the process's
# transparent-huge-page total from /proc. Used to look into why the C++ and
# Rust programs' host-side rows differ (code/day09-timing/README.md).
#
# Usage: gpu-phases/thp-probe.sh <program> [runs] [delay_s]
set -u
prog=${1:?usage: gpu-phases/thp-probe.sh <program> [runs] [delay_s]}
runs=${2:-3}
delay=${3:-0.6}
echo "transparent_hugepage: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null)"
echo "transparent_hugepage defrag: $(cat /sys/kernel/mm/transparent_hugepage/defrag 2>/dev/null)"
for i in $(seq "$runs"); do
  "$prog" >/dev/null 2>&1 &
  pid=$!
  sleep "$delay"
  rss=$(awk '/^Rss:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null)
  thp=$(awk '/^AnonHugePages:/ {print $2}' "/proc/$pid/smaps_rollup" 2>/dev/null)
  wait "$pid"
  echo "run $i: after ${delay} s, Rss ${rss:-?} kB, AnonHugePages ${thp:-?} kB, exit $?"
done
