#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs an Nsight Compute command and prints its output as it came, then
each profiled launch's metrics as `LABEL: NUMBER` lines, the form the
figure blocks' lines() reads in evidence/diagnostics/.

Usage: ncu-lines.py KEY -- ncu ... --csv --print-units base PROGRAM ...
       ncu-lines.py passes -- ncu ... PROGRAM ...     (no --csv)

KEY says what tells launches of one kernel apart in the labels:
  block   `ncu KERNEL at B threads, METRIC` (the last launch of each block
          size: earlier ones are warm-ups)
  grid    `ncu KERNEL grid G, METRIC` (the last launch of each grid size)
  index   `ncu KERNEL launch I, METRIC` (every launch, I counting from 0 per
          kernel)
  passes  `ncu passes KERNEL launch I: N`, the replay passes ncu reports
          for each profiled launch (its progress lines, which --csv hides)
KERNEL is the kernel's name up to its first `(` or `<`. Used by Day 10's and
Day 11's gpu-phases/why.sh and Day 11's causes.sh. Exits with the command's
status.
"""
import csv
import re
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 4 or sys.argv[2] != "--" or sys.argv[1] not in ("block", "grid", "index", "passes"):
        print(__doc__.strip().splitlines()[4], file=sys.stderr)
        return 2
    key = sys.argv[1]
    if key == "passes":
        return passes(sys.argv[3:])
    done = subprocess.run(sys.argv[3:], stdout=subprocess.PIPE, text=True)
    sys.stdout.write(done.stdout)
    rows = [r for r in csv.reader(line for line in done.stdout.splitlines() if line.startswith('"'))]
    if not rows or rows[0][0] != "ID":
        print("ncu-lines: no CSV rows in the output", file=sys.stderr)
        return done.returncode or 1
    head = rows[0]
    col = {name: head.index(name) for name in ("ID", "Kernel Name", "Block Size", "Grid Size", "Metric Name", "Metric Value")}
    launches = {}  # ID -> (kernel, block, grid, {metric: value})
    for r in rows[1:]:
        kernel = r[col["Kernel Name"]].split("(")[0].split("<")[0].strip()
        block = r[col["Block Size"]].strip("()").split(",")[0].strip()
        grid = r[col["Grid Size"]].strip("()").split(",")[0].strip()
        value = r[col["Metric Value"]].replace(",", "")
        entry = launches.setdefault(int(r[col["ID"]]), (kernel, block, grid, {}))
        entry[3][r[col["Metric Name"]]] = value
    labelled = {}  # label -> metrics, later launches replacing earlier ones
    per_kernel = {}
    for launch_id in sorted(launches):
        kernel, block, grid, metrics = launches[launch_id]
        if key == "block":
            label = f"ncu {kernel} at {block} threads"
        elif key == "grid":
            label = f"ncu {kernel} grid {grid}"
        else:
            index = per_kernel.get(kernel, 0)
            per_kernel[kernel] = index + 1
            label = f"ncu {kernel} launch {index}"
        labelled[label] = metrics
    print("ncu-lines: each profiled launch's metrics")
    for label, metrics in labelled.items():
        for metric, value in metrics.items():
            print(f"{label}, {metric}: {value}")
    return done.returncode


def passes(command: list) -> int:
    """The command's output as it came, then each launch's replay passes."""
    done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(done.stdout)
    found = re.findall(r'==PROF== Profiling "([^"(<]+)[^"]*".* - (\d+) pass', done.stdout)
    if not found:
        print("ncu-lines: no `Profiling ... N passes` line in the output", file=sys.stderr)
        return done.returncode or 1
    print("ncu-lines: each profiled launch's replay passes")
    per_kernel = {}
    for kernel, count in found:
        index = per_kernel.get(kernel, 0)
        per_kernel[kernel] = index + 1
        print(f"ncu passes {kernel.strip()} launch {index}: {count}")
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
