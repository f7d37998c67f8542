#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel-timer session's summary (session.sh): each kernel's median
beside Nsight Compute's gpu__time_duration (median of its launches), CUPTI's
beside the recommended mode and graph-pdl for the short kernels, and the A/A and A/B
labels. Reads the folder session.sh worked in: NAME.json, cupti-NAME.json,
aa-*.json, ab-*.json and the ncu transcripts *-kernel-timer-ncu-NAME.txt.

Usage: summarize.py FOLDER"""

import csv
import glob
import json
import os
import statistics
import sys


def median_of(path):
    """(median ms, mode, kept samples) of a kernel-timer JSON; None where
    there is no median."""
    try:
        m = json.load(open(path))["measurement"]
    except (OSError, ValueError, KeyError):
        return None
    if m["too_many_rejected"]:
        return None
    return m["summary"]["median"], m["mode"], m["summary"]["n"]


def ncu_median(path):
    """Median ms of gpu__time_duration over the launches in an ncu CSV
    transcript, and how many there were."""
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]
    rows = [r for r in csv.DictReader(lines) if r.get("Metric Name") == "gpu__time_duration.sum"]
    unit = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}
    ms = [float(r["Metric Value"].replace(",", "")) * unit[r["Metric Unit"]] for r in rows]
    return (statistics.median(ms), len(ms)) if ms else None


def labels(path):
    """The labels of an A/B JSON, and B - A in percent for each."""
    try:
        ab = json.load(open(path))["ab"]
    except (OSError, ValueError, KeyError):
        return None
    return [(r["comparison"]["label"].upper(), 100 * r["comparison"]["rel"]) if r["comparison"] else ("NONE", None) for r in ab]


def print_long(folder):
    """The 10 ms fma_loop's processes per budget: the spread of their medians
    (max over min, less 1) against the GPU time one process spent."""
    for budget in (1000, 150):
        runs = []
        for path in sorted(glob.glob(os.path.join(folder, f"long-b{budget}-*.json"))):
            try:
                m = json.load(open(path))["measurement"]
                runs.append((m["summary"]["median"], m["summary"]["n"], m["gpu_ms_spent"]))
            except (OSError, ValueError, KeyError, TypeError):
                continue
        if len(runs) < 2:
            continue
        medians = [r[0] for r in runs]
        spread = max(medians) / min(medians) - 1
        gpu_s = statistics.median(r[2] for r in runs) / 1000
        if budget == 1000:
            print()
            print("fma_loop of about 10 ms: processes' medians, spread (max/min - 1), GPU time a process spent")
        print(f"budget {budget:>4} ms: {len(runs)} processes, medians {min(medians):.5f} .. {max(medians):.5f} ms, "
              f"samples {min(r[1] for r in runs)} .. {max(r[1] for r in runs)}, spread {100 * spread:.3f}%, "
              f"GPU {gpu_s:.3f} s, spread x sqrt(GPU s) {100 * spread * gpu_s ** 0.5:.4f}%")


def print_long_suite(folder):
    """The suite's fma-10ms in several instrument-suite processes: the same
    spread against GPU time, for the kernel issue 44 names."""
    runs = []
    for path in sorted(glob.glob(os.path.join(folder, "long-suite-*.json-suite"))):
        try:
            for k in json.load(open(path)).get("kernels", []):
                if k.get("median"):
                    runs.append((k["median"]["ms"], k["measurement"]["gpu_ms_spent"]))
        except (OSError, ValueError, KeyError):
            continue
    if len(runs) < 2:
        return
    medians = [r[0] for r in runs]
    spread = max(medians) / min(medians) - 1
    gpu_s = statistics.median(r[1] for r in runs) / 1000
    print(f"the suite's fma-10ms: {len(runs)} processes, medians {min(medians):.5f} .. {max(medians):.5f} ms, "
          f"spread {100 * spread:.3f}%, GPU {gpu_s:.3f} s, spread x sqrt(GPU s) {100 * spread * gpu_s ** 0.5:.4f}%")


def print_floor(folder):
    """The suite's short kernels in graph, graph-pdl and CUPTI mode, each
    mode's median over the processes, and each replay mode less CUPTI."""
    by = {}
    for path in sorted(glob.glob(os.path.join(folder, "floor-*.json-suite"))):
        try:
            run = json.load(open(path))
        except (OSError, ValueError):
            continue
        for k in run.get("kernels", []):
            if k.get("median"):
                by.setdefault(k["kernel"], {}).setdefault(k["measurement"]["mode"], []).append(k["median"]["ms"])
    if not by:
        return
    print()
    print("the suite's short kernels: median over processes per mode, and each replay mode less CUPTI's records")
    for kernel, modes in sorted(by.items()):
        med = {m: statistics.median(v) for m, v in modes.items()}
        cupti = next((v for m, v in med.items() if m.lower() == "cupti"), None)
        cells = [f"{m} {v * 1000:.3f} us ({len(modes[m])})" for m, v in sorted(med.items())]
        diffs = [f"{m} - cupti {1000 * (v - cupti):+.3f} us" for m, v in sorted(med.items())
                 if cupti is not None and m.lower() != "cupti"]
        print(f"{kernel:<15} " + ", ".join(cells + diffs))


def main(folder):
    print("kernel-timer against Nsight Compute (ncu --clock-control none, gpu__time_duration, median of its launches)")
    print(f"{'kernel':<22} {'mode':<10} {'samples':>7} {'median ms':>11} {'ncu ms':>11} {'launches':>8} {'ratio':>7}")
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        name = os.path.basename(path)[:-5]
        if name.startswith(("cupti-", "graph-pdl-", "aa-", "ab-", "spread-")):
            continue
        ours = median_of(path)
        ncu_files = glob.glob(os.path.join(folder, f"*-kernel-timer-ncu-{name}.txt"))
        ncu = ncu_median(ncu_files[0]) if ncu_files else None
        if ours is None:
            print(f"{name:<22} no median")
            continue
        ratio = f"{ours[0] / ncu[0]:.4f}" if ncu else "-"
        ncu_ms = f"{ncu[0]:.5f}" if ncu else "-"
        launches = ncu[1] if ncu else "-"
        print(f"{name:<22} {ours[1]:<10} {ours[2]:>7} {ours[0]:>11.5f} {ncu_ms:>11} {launches:>8} {ratio:>7}")
    print()
    print("short kernels: CUPTI's records (--mode cupti) beside the recommended mode and graph-pdl")
    for path in sorted(glob.glob(os.path.join(folder, "cupti-*.json"))):
        name = os.path.basename(path)[len("cupti-"):-5]
        cupti = median_of(path)
        for other in (f"{name}.json", f"graph-pdl-{name}.json"):
            ours = median_of(os.path.join(folder, other))
            if cupti and ours:
                diff_us = 1000 * (ours[0] - cupti[0])
                print(f"{name:<22} cupti {cupti[0]:.5f} ms, {ours[1]} {ours[0]:.5f} ms, difference {diff_us:+.3f} us")
    ncu_runs = sorted(glob.glob(os.path.join(folder, "*-kernel-timer-ncu-*row-softmax*.txt")))
    if len(ncu_runs) > 1:
        print()
        print("row-softmax under other conditions: each ncu process's median, and each kernel-timer run over ncu's median of them")
        with_cache = []
        for path in ncu_runs:
            got = ncu_median(path)
            name = os.path.basename(path)[:-4].split("-kernel-timer-")[1]
            if got:
                print(f"{name:<28} {got[0]:.5f} ms over {got[1]} launches")
                if "nocache" not in name:
                    with_cache.append(got[0])
        for path in sorted(glob.glob(os.path.join(folder, "*row-softmax*.json"))):
            ours = median_of(path)
            if ours and with_cache:
                print(f"{os.path.basename(path)[:-5]:<28} {ours[1]:<10} {ours[0]:.5f} ms, "
                      f"{ours[0] / statistics.median(with_cache):.4f} of ncu's")
    print_long(folder)
    print_long_suite(folder)
    print_floor(folder)
    print()
    for path in sorted(glob.glob(os.path.join(folder, "a[ab]-*.json"))):
        got = labels(path)
        if got is None:
            continue
        counts = {l: sum(1 for g, _ in got if g == l) for l in ("SAME", "FASTER", "SLOWER", "UNSURE", "NONE")}
        rel = [r for _, r in got if r is not None]
        spread = f", B - A from {min(rel):+.2f}% to {max(rel):+.2f}%" if rel else ""
        print(f"{os.path.basename(path)[:-5]}: {len(got)} comparisons: "
              + ", ".join(f"{k} {v}" for k, v in counts.items()) + spread)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: summarize.py FOLDER")
    main(sys.argv[1])
