# SPDX-License-Identifier: MIT
"""Issue 36's figures from one gpu-inst.sh work folder, one part at a time.

Prints nothing it did not read: a missing file leaves a line saying so.

Usage: python3 summarize.py WORKDIR
"""
import csv
import glob
import json
import os
import re
import statistics
import sys

UNITS = {"ns": 1e-6, "nsecond": 1e-6, "us": 1e-3, "usecond": 1e-3, "ms": 1.0, "msecond": 1.0}


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"  (unreadable: {os.path.basename(path)}: {e})")
        return None


def spread(values):
    return max(values) / min(values) - 1 if values and min(values) > 0 else float("nan")


def rel_sd(values):
    return statistics.stdev(values) / statistics.mean(values) if len(values) > 1 else float("nan")


def kept(m):
    return [s["ms"] for s in m["samples"] if not s.get("dropped") and not s.get("rejected")]


def outliers(m):
    """Kept samples off the median by more than 10%, and all samples taken."""
    ks = kept(m)
    if not ks:
        return 0, len(m["samples"])
    med = statistics.median(ks)
    return sum(1 for x in ks if abs(x / med - 1) > 0.10), len(m["samples"])


def part1(w):
    print("== part 1: samples below the physical floor")
    diag = os.path.join(w, "floor", "floor_diag.txt")
    if os.path.exists(diag):
        print("-- floor_diag (host-queued is the isolated timing before the fix, in-graph after):")
        with open(diag) as f:
            for line in f:
                if not line.startswith("#"):
                    print("   " + line.rstrip())
    else:
        print("  floor_diag: no output")
    print("-- day09-timing --stats, per process and mode: samples, rejected, below the memory floor "
          "(floor ms), kept min / median, kept samples off the median by >10%")
    for path in sorted(glob.glob(os.path.join(w, "floor", "day09-stats-*.json"))):
        r = load(path)
        if not r:
            continue
        for m in r.get("measurements", []):
            off, n = outliers(m)
            ks = kept(m)
            floor = m.get("floor_ms")
            print(f"  {os.path.basename(path):20} {m['mode']:10} {n:5} rejected {m.get('rejected', '-'):>3} "
                  f"below floor {m.get('below_floor', '-'):>3} ({floor if floor is None else round(floor, 5)}) "
                  f"min {min(ks) if ks else float('nan'):.5f} median {m['summary']['median']:.5f} off10% {off}")
    print("-- instrument-suite --kernel vector-add --mode isolated")
    for path in sorted(glob.glob(os.path.join(w, "floor", "suite-isolated-*.json"))):
        r = load(path)
        for k in (r or {}).get("kernels", []):
            m = k["measurement"]
            off, n = outliers(m)
            ks = kept(m)
            print(f"  {os.path.basename(path):22} {k['kernel']:12} {n:5} rejected {m.get('rejected', '-'):>3} "
                  f"below floor {m.get('below_floor', '-'):>3} min {min(ks) if ks else float('nan'):.5f} "
                  f"median {m['summary']['median']:.5f} off10% {off}")


def ncu_median(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        lines = [line for line in f if line.startswith('"')]
    ms = [float(r["Metric Value"].replace(",", "")) * UNITS[r["Metric Unit"]]
          for r in csv.DictReader(lines) if r.get("Metric Name") == "gpu__time_duration.sum"]
    return statistics.median(ms) if ms else None


def part2(w):
    print("== part 2: graph replay beside CUPTI's kernel records, same process (us)")
    print(f"  {'kernel':14} {'process':>7} {'graph':>9} {'cupti':>9} {'graph-cupti':>12} {'ncu':>9}")
    for k in ["empty", "vector-add-l2"]:
        ncu = ncu_median(os.path.join(w, "cupti", f"ncu-{k}.txt"))
        diffs = []
        for path in sorted(glob.glob(os.path.join(w, "cupti", f"{k}-*.json")),
                           key=lambda p: int(re.findall(r"-(\d+)\.json$", p)[0])):
            r = load(path)
            med = {x["measurement"]["mode"]: x["median"]["ms"]
                   for x in (r or {}).get("kernels", []) if x.get("median") and x["kernel"] == k}
            g, c = med.get("Graph"), med.get("Cupti")
            if g is None or c is None:
                print(f"  {k:14} {os.path.basename(path):>7} missing a mode: {sorted(med)}")
                continue
            diffs.append((g - c) * 1e3)
            proc = re.findall(r"-(\d+)\.json$", path)[0]
            ncu_us = ncu * 1e3 if ncu else float("nan")
            print(f"  {k:14} {proc:>7} {g * 1e3:9.4f} {c * 1e3:9.4f} {(g - c) * 1e3:+12.4f} {ncu_us:9.4f}")
        if diffs:
            print(f"  {k}: graph - cupti median {statistics.median(diffs):+.4f} us over {len(diffs)} processes "
                  f"(range {min(diffs):+.4f} to {max(diffs):+.4f}); target within 0.1 us: "
                  f"{'met' if max(abs(d) for d in diffs) <= 0.1 else 'not met'}")


def part3(w):
    print("== part 3: fma-1ms and fma-10ms across processes")
    alone = [(k, f"{k} alone", os.path.join(w, "fma", f"{k}-*.json")) for k in ["fma-1ms", "fma-10ms"]]
    in_suite = [(k, f"{k} after the rest of the suite (part 5's A processes)", os.path.join(w, "aa", "a-*.json"))
                for k in ["fma-1ms", "fma-10ms"]]
    for k, title, pattern in alone + in_suite:
        rows = []
        for path in sorted(glob.glob(pattern), key=lambda p: int(re.findall(r"-(\d+)\.json$", p)[0])):
            r = load(path)
            for x in (r or {}).get("kernels", []):
                if x.get("median") and x["kernel"] == k:
                    m = x["measurement"]
                    ks = kept(m)
                    half = len(ks) // 2
                    drift = (statistics.median(ks[half:]) / statistics.median(ks[:half]) - 1) if half else float("nan")
                    clocks = [s["clocks"]["sm_mhz"] for s in m["samples"] if s.get("clocks")]
                    rows.append((x["median"]["ms"], m["gpu_ms_spent"], len(m["samples"]), drift,
                                 (min(clocks), max(clocks)) if clocks else None, m["mode"]))
        if not rows:
            print(f"  {title}: no runs")
            continue
        meds = [r[0] for r in rows]
        gpu = statistics.mean(r[1] for r in rows)
        print(f"  {title}: {len(rows)} processes ({rows[0][5]}), medians {', '.join(f'{x:.5f}' for x in meds)}")
        print(f"    spread (max/min - 1) {100 * spread(meds):.3f}%, sd {100 * rel_sd(meds):.3f}%, "
              f"GPU ms/process {gpu:.1f}, spread x sqrt(GPU s) {100 * spread(meds) * (gpu / 1e3) ** 0.5:.4f}%")
        for i, r in enumerate(rows, 1):
            print(f"    process {i}: {r[2]} samples, second half / first half median - 1 = {100 * r[3]:+.3f}%, "
                  f"SM clock {r[4]}")
    part3_counters(w)
    print("-- fma kernels by mode (MODE_PROCS processes each)")
    by = {}
    for path in glob.glob(os.path.join(w, "fma", "modes-*.json")):
        r = load(path)
        for x in (r or {}).get("kernels", []):
            if x.get("median"):
                by.setdefault((x["kernel"], x["measurement"]["mode"]), []).append(
                    (x["median"]["ms"], x["measurement"]["gpu_ms_spent"]))
    for (k, mode), v in sorted(by.items()):
        meds = [a for a, _ in v]
        print(f"  {k:9} {mode:9} n={len(v)} median of medians {statistics.median(meds):.5f} "
              f"spread {100 * spread(meds):.3f}% GPU ms {statistics.mean(b for _, b in v):.1f}")


def counters(path):
    """name -> microseconds from `nvidia-smi -q -d PERFORMANCE`'s counters
    (lines such as `SW Power Capping : 1234 us`); empty where none."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                m = re.match(r"\s*([A-Za-z][A-Za-z /]+?)\s*:\s*(\d+)\s*us\s*$", line)
                if m:
                    out[m.group(1)] = int(m.group(2))
    except OSError:
        pass
    return out


def part3_counters(w):
    """The clock-event counters' growth over each fma process."""
    print("-- nvidia-smi clock-event counters, growth over each process (us; only those that grew)")
    before = counters(os.path.join(w, "fma", "performance-0.txt"))
    if not before:
        print("   (no counters in performance-0.txt)")
        return
    i = 1
    while True:
        seen = False
        for k in ["fma-1ms", "fma-10ms"]:
            path = os.path.join(w, "fma", f"performance-{k}-{i}.txt")
            if not os.path.exists(path):
                continue
            seen = True
            after = counters(path)
            grew = {n: after[n] - before.get(n, 0) for n in after if after[n] != before.get(n, 0)}
            print(f"   {k} process {i}: " + (", ".join(f"{n} +{d}" for n, d in grew.items()) or "none grew"))
            before = after
        if not seen:
            break
        i += 1


def labels(path):
    """kernel -> label from one `compare` table."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 2 and parts[1] in ("SAME", "FASTER", "SLOWER", "UNSURE"):
                out[parts[0]] = parts[1]
    return out


def part5(w):
    print("== part 5: A/A and A/B labels")
    for kind, pattern in [("A/A, H200 spreads", "compare-aa-[0-9]*.txt"),
                          ("A/A, spread from the first 6 processes (out of sample)", "compare-aa-calibrated-*.txt"),
                          ("A/B, --scale 1.02 (empty: the same launch)", "compare-ab-*.txt")]:
        files = sorted(glob.glob(os.path.join(w, "aa", pattern)))
        counts = {}
        for path in files:
            for k, label in labels(path).items():
                counts.setdefault(k, {}).setdefault(label, 0)
                counts[k][label] += 1
        total = sum(sum(c.values()) for c in counts.values())
        false = sum(c.get("SLOWER", 0) + c.get("FASTER", 0) for c in counts.values())
        print(f"-- {kind}: {len(files)} comparisons, {total} labels"
              + (f", {false} FASTER or SLOWER" if kind.startswith("A/A") else ""))
        for k, c in counts.items():
            print(f"   {k:14} " + ", ".join(f"{label} {n}" for label, n in sorted(c.items())))


def main():
    w = sys.argv[1]
    for part in (part1, part2, part3, part5):
        try:
            part(w)
        except Exception as e:  # one part's failure must not hide the others
            print(f"  ({part.__name__} failed: {type(e).__name__}: {e})")


if __name__ == "__main__":
    main()
