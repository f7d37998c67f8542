# SPDX-License-Identifier: MIT
"""Side-by-side tables from one suite-session.sh work folder.

Per kernel: Nsight Compute's gpu__time_duration (median of its launches),
the instrument's median over its processes (each process's recommended-mode
median; ratio to ncu, spread = max/min of the medians less 1, GPU ms each
process spent on the kernel), and nvbench's cold and batch GPU means (ratio,
spread, and the kernel GPU time its samples add up to, plus its wall time).
Then the labels `compare` gave the A/A and A/B pairs. Prints nothing it did
not read: a missing file leaves a dash.

Usage: python3 summarize_session.py WORKDIR SUITE_ORDER NCU_LAUNCHES
"""
import csv
import glob
import json
import os
import statistics
import sys

# ncu names a time unit "ns" with --print-units base (as suite-session.sh
# asks) and "nsecond" in its older spellings; both mean the same.
UNITS = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3,
         "ms": 1.0, "msecond": 1.0, "s": 1e3, "second": 1e3}


def unit_ms(unit):
    """Milliseconds in one `unit` of ncu's; an unknown unit is an error,
    never a silent NaN (the first trial's summary lost every ncu value so)."""
    if unit not in UNITS:
        raise ValueError(f"ncu time unit {unit!r} is not one this script knows")
    return UNITS[unit]


def ratio(x, truth):
    """x / truth, or None when either is missing or truth is zero."""
    return None if x is None or not truth else x / truth


def spread(values):
    return max(values) / min(values) - 1 if values and min(values) > 0 else float("nan")


def ncu_medians(path, order, launches):
    """Median ms per kernel from ncu's CSV, launches taken in suite order."""
    if not os.path.exists(path):
        return {}
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]
    rows = [r for r in csv.DictReader(lines) if r.get("Metric Name") == "gpu__time_duration.sum"]
    out = {}
    for i, kernel in enumerate(order):
        block = rows[i * launches:(i + 1) * launches]
        ms = [float(r["Metric Value"].replace(",", "")) * unit_ms(r["Metric Unit"]) for r in block]
        if ms:
            out[kernel] = (statistics.median(ms), len(ms), block[0]["Kernel Name"])
    return out


def instrument_runs(folder, pattern="suite-*.json"):
    """kernel -> [(median ms, GPU ms, mode)] over the suite JSONs."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, pattern))):
        try:
            run = json.load(open(path))
        except (OSError, ValueError):
            continue
        for k in run.get("kernels", []):
            if k.get("median"):
                m = k["measurement"]
                out.setdefault(k["kernel"], []).append((k["median"]["ms"], m["gpu_ms_spent"], m["mode"]))
    return out


def summary_value(summaries, tag):
    for s in summaries:
        if s.get("tag") == tag:
            for d in s.get("data", []):
                if d.get("name") == "value":
                    return float(d["value"])
    return None


def nvbench_runs(folder):
    """kernel -> [(cold ms, batch ms, kernel GPU ms, wall s)] over nvbench JSONs."""
    out = {}
    for path in sorted(glob.glob(os.path.join(folder, "nvbench-*.json"))):
        try:
            run = json.load(open(path))
        except (OSError, ValueError):
            continue
        for b in run.get("benchmarks", []):
            for st in b.get("states", []):
                s = st.get("summaries") or []
                v = {t: summary_value(s, f"nv/{t}") for t in [
                    "cold/time/gpu/mean", "cold/sample_size", "cold/walltime",
                    "batch/time/gpu/mean", "batch/sample_size", "batch/walltime"]}
                if v["cold/time/gpu/mean"] is None:
                    continue
                gpu_s = sum((v[f"{m}/time/gpu/mean"] or 0) * (v[f"{m}/sample_size"] or 0) for m in ["cold", "batch"])
                wall = sum(v[f"{m}/walltime"] or 0 for m in ["cold", "batch"])
                out.setdefault(b["name"], []).append(
                    (v["cold/time/gpu/mean"] * 1e3, (v["batch/time/gpu/mean"] or float("nan")) * 1e3, gpu_s * 1e3, wall))
    return out


def print_modes(folder, order, ncu):
    """suite-session.sh's modes step, mode-MODE-I.json for process I: each
    kernel's median over its processes in every mode, over ncu's, and the
    spread of the processes' medians; a dash where a mode gave no median."""
    files = sorted(glob.glob(os.path.join(folder, "mode-*.json")))
    if not files:
        return
    by_mode = {}
    for f in files:
        name = os.path.basename(f)[len("mode-"):-len(".json")]
        # mode-MODE-I.json, or mode-MODE.json from sessions before MODE_PROCS.
        stem, _, number = name.rpartition("-")
        mode = stem if number.isdigit() else name
        by_mode.setdefault(mode, []).append(os.path.basename(f))
    procs = max(len(v) for v in by_mode.values())
    print(f"every mode, {procs} process(es) each: median ms (vs ncu) spread")
    print(f"{'kernel':<15}" + "".join(f" | {n:>28}" for n in by_mode))
    runs = {m: [instrument_runs(folder, f) for f in fs] for m, fs in by_mode.items()}
    for k in order:
        t = ncu.get(k, (None,))[0]
        cells = []
        for m in by_mode:
            medians = [r[k][0][0] for r in runs[m] if k in r]
            med = statistics.median(medians) if medians else None
            sp = 100 * spread(medians) if len(medians) > 1 else None
            cells.append(f"{fmt(med, '.5f')} ({fmt(ratio(med, t), '.3f')}) {fmt(sp, '.2f')}%")
        print(f"{k:<15}" + "".join(f" | {c:>28}" for c in cells))


def nvbench_compare_statuses(folder, kind):
    """Status words (SAME, FAST, SLOW) in nvbench_compare.py's tables."""
    counts = {}
    for path in glob.glob(os.path.join(folder, f"nvbench-compare-{kind}-*.txt")):
        for line in open(path, encoding="utf-8"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 7 and cells[0].endswith("s") and cells[6]:
                word = cells[6].split()[-1]
                counts[word] = counts.get(word, 0) + 1
    return counts


def fmt(x, spec):
    return "-" if x is None or x != x else format(x, spec)


def main():
    work, order, launches = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
    ncu = ncu_medians(os.path.join(work, "ncu.csv"), order, launches)
    inst = instrument_runs(os.path.join(work, "suite"))
    nvb = nvbench_runs(os.path.join(work, "nvbench"))
    print("kernel          ncu ms (n)       | instrument: median ms  vs ncu  spread  GPU ms/proc  mode"
          "       | nvbench cold ms  vs ncu  spread | batch ms  vs ncu  spread | kernel GPU ms/proc  wall s/proc")
    for k in order:
        t = ncu.get(k, (None, 0, ""))[0]
        ir = inst.get(k, [])
        im = statistics.median([r[0] for r in ir]) if ir else None
        ig = statistics.mean([r[1] for r in ir]) if ir else None
        modes = ",".join(sorted({r[2] for r in ir})) or "-"
        nr = nvb.get(k, [])
        cold = [r[0] for r in nr]
        batch = [r[1] for r in nr]
        nc = statistics.median(cold) if nr else None
        nb = statistics.median(batch) if nr else None
        ng = statistics.mean([r[2] for r in nr]) if nr else None
        nw = statistics.mean([r[3] for r in nr]) if nr else None
        print(f"{k:<15} {fmt(t, '.5f'):>9} ({ncu.get(k, (0, 0))[1]:>2}) | {fmt(im, '.5f'):>21} {fmt(ratio(im, t), '.3f'):>7}"
              f" {fmt(100 * spread([r[0] for r in ir]) if ir else None, '.2f'):>6}% {fmt(ig, '.1f'):>12}  {modes:<10}"
              f" | {fmt(nc, '.5f'):>15} {fmt(ratio(nc, t), '.3f'):>7} {fmt(100 * spread(cold) if nr else None, '.2f'):>6}%"
              f" | {fmt(nb, '.5f'):>8} {fmt(ratio(nb, t), '.3f'):>7} {fmt(100 * spread(batch) if nr else None, '.2f'):>6}%"
              f" | {fmt(ng, '.1f'):>18} {fmt(nw, '.2f'):>12}")
    for k, (_, n, name) in ncu.items():
        print(f"ncu rows for {k}: {n} launches of {name}")
    print_modes(os.path.join(work, "modes"), order, ncu)
    if not os.path.isdir(os.path.join(work, "pairs")):
        return
    for kind, title in [("aa", "A/A (vector-add at n, two processes)"), ("ab", "A/B (vector-add at n and 1.02 n)")]:
        labels = {}
        for path in glob.glob(os.path.join(work, "pairs", f"compare-{kind}-*.txt")):
            for line in open(path):
                f = line.split()
                if f and f[0] == "vector-add":
                    labels[f[1]] = labels.get(f[1], 0) + 1
        print(f"{title}: " + (", ".join(f"{l} {n}" for l, n in sorted(labels.items())) or "-"))
    nvb = os.path.join(work, "nvb-pairs")
    if os.path.isdir(nvb):
        for kind, title in [("aa", "nvbench_compare.py A/A"), ("ab", "nvbench_compare.py A/B")]:
            counts = nvbench_compare_statuses(nvb, kind)
            print(f"{title}: " + (", ".join(f"{l} {n}" for l, n in sorted(counts.items())) or "-"))


if __name__ == "__main__":
    main()
