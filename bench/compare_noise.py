#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How often `mpibench compare` says "changed" when nothing changed, and how often it catches a
real slowdown - measured on what a CI job sees: the exit status of whole-run group pairs.

1. Collect: POOL runs back to back (`mpibench run --quick` by default) into WORKDIR/run-NNN.
   Runs found there are reused (--collect 0 evaluates an existing pool).
2. A/A: pairs of disjoint groups of n runs (n = 1, 2, 3, 5 by default) taken from the pool two
   ways: "block" (runs i..i+n-1 against the next n: groups made minutes apart, as a baseline
   and a later check are) and "random" (2n runs drawn at random and split: the drift between
   the groups averages out, as in an interleaved A/B). Each pair is compared once
   (`compare --all --json -`); the share of pairs whose exit status would be 1 and the share of
   rows flagged are then recomputed at every threshold of the table from the JSON (a verdict is
   "significant and beyond the threshold"; the significance does not depend on the threshold).
3. Injected slowdowns: block pairs and half as many random pairs, every time of the second
   group's runs scaled by f (bandwidths by 1/f) for each factor of --factors: the share of
   communication rows flagged REGRESSED and the share of pairs with status 1, at every
   threshold.

The recomputation is checked against compare's own exit status at the thresholds the pairs
were compared with (a mismatch stops the script). Prints Markdown tables: the operating curve
(false-alarm and detection rates against threshold and runs per group) for docs/figures.md.

Usage: compare_noise.py --build BUILD_DIR [--workdir DIR] [--collect 40] [--np 2]
           [--mpiexec 'mpiexec --oversubscribe'] [--run-args '--quick']
           [--sizes 1,2,3,5] [--factors 1.1,1.2,1.3] [--random-pairs 100] [--seed 1]
"""

import argparse
import json
import os
import platform
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

COMM_THRESHOLDS = (5, 7.5, 10, 12.5, 15, 20, 25, 30, 40, 50)
SINGLE_BANDS = (25, 50, 75, 100, 150, 200, 300)


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def collect(opts):
    os.makedirs(opts.workdir, exist_ok=True)
    binary = os.path.join(os.path.abspath(opts.build), "mpibench")
    for i in range(1, opts.collect + 1):
        d = os.path.join(opts.workdir, f"run-{i:03d}")
        if os.path.isfile(os.path.join(d, "results.jsonl")):
            continue
        if os.path.isdir(d):
            shutil.rmtree(d)
        cmd = (shlex.split(opts.mpiexec) + ["-np", str(opts.np), binary, "run"] +
               shlex.split(opts.run_args) + ["--output-dir", d])
        start = time.monotonic()
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        log(f"  run-{i:03d}: status {p.returncode} in {time.monotonic() - start:.0f} s, load "
            f"{os.getloadavg()[0]:.1f}")
        if p.returncode != 0:
            sys.exit(f"{shlex.join(cmd)}: status {p.returncode}\n{p.stderr[-2000:]}")


def pool(opts):
    runs = sorted(os.path.join(opts.workdir, d) for d in os.listdir(opts.workdir)
                  if re.fullmatch(r"run-\d+", d) and
                  os.path.isfile(os.path.join(opts.workdir, d, "results.jsonl")))
    if len(runs) < 2:
        sys.exit(f"{opts.workdir}: fewer than 2 runs")
    return runs


# A time field (seconds or microseconds, with the samples' suffixes) is scaled by f, a rate
# (anything per second) by 1/f: the new run is f times slower in every figure compare reads.
RATE = re.compile(r"_per_sec")
TIME = re.compile(r"(_usec|_sec)(_|$)")


def scale_record(o, f):
    for k, v in list(o.items()):
        if k == "type" or isinstance(v, (str, bool)) or v is None:
            continue
        factor = 1 / f if RATE.search(k) else f if TIME.search(k) else None
        if factor is None:
            continue
        if isinstance(v, (int, float)):
            o[k] = v * factor
        elif isinstance(v, list) and all(isinstance(x, (int, float)) for x in v):
            o[k] = [x * factor for x in v]
    return o


def scaled_copy(run, f, tmp):
    d = os.path.join(tmp, f"{os.path.basename(run)}-x{f:g}")
    if not os.path.isdir(d):
        os.makedirs(d)
        with open(os.path.join(run, "results.jsonl")) as src, \
                open(os.path.join(d, "results.jsonl"), "w") as dst:
            for line in src:
                if line.strip():
                    dst.write(json.dumps(scale_record(json.loads(line), f)) + "\n")
    return d


def compare(opts, base, new):
    cmd = ([os.path.join(os.path.abspath(opts.build), "mpibench"), "compare", "--all", "--json",
            "-"] + shlex.split(opts.compare_args) + base + ["--"] + new)
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1):
        sys.exit(f"{shlex.join(cmd)}: status {p.returncode}\n{p.stderr}")
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    return p.returncode, recs


def flagged(d, t_comm, t_io):
    """compare's verdict recomputed at other thresholds: significant and beyond."""
    if d.get("ratio") is None or not d.get("significant"):
        return False
    t = t_io if d.get("file_io") else t_comm
    return d["ratio"] > 1 + t / 100


def overall_threshold(fams, t_comm, t_io):
    import math
    if not fams:
        return t_comm
    s = sum(math.log1p((t_io if f["file_io"] else t_comm) / 100) for f in fams)
    return 100 * math.expm1(s / len(fams))


def exit_status(recs, t_comm, t_io):
    fams = [r for r in recs if r["type"] == "compare_family"]
    over = next(r for r in recs if r["type"] == "compare_overall")
    if any(flagged(f, t_comm, t_io) for f in fams):
        return 1
    t = overall_threshold(fams, t_comm, t_io)
    return 1 if flagged(dict(over, file_io=False), t, t) else 0


def comm_rows(recs):
    return [r for r in recs if r["type"] == "compare_row" and not r["file_io"] and
            r["verdict"] in ("unchanged", "regressed", "improved", "uncertain")]


def all_rows(recs):
    return [r for r in recs if r["type"] == "compare_row" and
            r["verdict"] in ("unchanged", "regressed", "improved", "uncertain")]


def row_share(rows, t_comm, t_io):
    if not rows:
        return float("nan")
    return sum(flagged(r, t_comm, t_io) for r in rows) / len(rows)


def evaluate(opts, pairs, label):
    """Compares every pair; returns per pair (recs, status) after checking the recomputation."""
    out = []
    for base, new in pairs:
        status, recs = compare(opts, base, new)
        s = next(r for r in recs if r["type"] == "compare_summary")
        again = exit_status(recs, s["threshold_percent"], s["io_threshold_percent"])
        if again != status:
            sys.exit(f"{label}: the recomputed exit status {again} is not compare's {status} "
                     f"({base} -- {new})")
        out.append(recs)
    return out


def block_pairs(runs, n):
    return [(runs[i:i + n], runs[i + n:i + 2 * n]) for i in range(0, len(runs) - 2 * n + 1, n)]


def random_pairs(runs, n, count, rng):
    pairs = []
    for _ in range(count):
        pick = rng.sample(runs, 2 * n)
        pairs.append((pick[:n], pick[n:]))
    return pairs


def pct(x):
    return "-" if x != x else f"{100 * x:.1f} %"


def table_aa(results, columns):
    """columns: (communication, file I/O) thresholds."""
    print("| runs a side | pairs | design | " +
          " | ".join(f"{t:g} / {io:g} %" for t, io in columns) + " |")
    print("|---|---|---|" + "---|" * len(columns))
    for (n, design), recs_list in results:
        cells = []
        for t, io in columns:
            share = sum(exit_status(r, t, io) for r in recs_list) / len(recs_list)
            rows = sum(row_share(all_rows(r), t, io) for r in recs_list) / len(recs_list)
            cells.append(f"{pct(share)} ({pct(rows)})")
        print(f"| {n} | {len(recs_list)} | {design} | " + " | ".join(cells) + " |")


def opts_io_for(t):
    """The file-I/O threshold paired with a communication threshold in the tables: 2.5 times
    it (compare's defaults, 10 and 25, keep that ratio); the columns vary both together."""
    return 2.5 * t


def table_injected(results):
    print("| runs a side | design | factor | pairs | " +
          " | ".join(f"{t:g} %" for t in COMM_THRESHOLDS) + " |")
    print("|---|---|---|---|" + "---|" * len(COMM_THRESHOLDS))
    for (n, design, f), recs_list in results:
        cells = []
        for t in COMM_THRESHOLDS:
            io = opts_io_for(t)
            hit = sum(row_share(comm_rows(r), t, io) for r in recs_list) / len(recs_list)
            status = sum(exit_status(r, t, io) for r in recs_list) / len(recs_list)
            cells.append(f"{pct(hit)} ({pct(status)})")
        print(f"| {n} | {design} | {f:g} | {len(recs_list)} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="build directory holding mpibench")
    ap.add_argument("--workdir", default="compare-noise-runs")
    ap.add_argument("--collect", type=int, default=40, help="runs in the pool (0: use those "
                    "found in WORKDIR)")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    ap.add_argument("--run-args", default="--quick", help="arguments of `mpibench run`")
    ap.add_argument("--compare-args", default="", help="extra arguments of compare")
    ap.add_argument("--sizes", default="1,2,3,5", help="runs a side")
    ap.add_argument("--factors", default="1.1,1.2,1.3", help="injected slowdowns")
    ap.add_argument("--random-pairs", type=int, default=100, help="random A/A pairs per size")
    ap.add_argument("--seed", type=int, default=1)
    opts = ap.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    rng = random.Random(opts.seed)
    sizes = [int(x) for x in opts.sizes.split(",")]
    factors = [float(x) for x in opts.factors.split(",")]

    print(f"# bench/compare_noise.py {shlex.join(sys.argv[1:])}")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.node()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    collect(opts)
    runs = pool(opts)
    print(f"# pool: {len(runs)} runs in {opts.workdir} (their dates are in their headers)")

    aa = []
    for n in sizes:
        blocks = block_pairs(runs, n)
        if blocks:
            aa.append(((n, "block"), evaluate(opts, blocks, f"A/A block {n}")))
        aa.append(((n, "random"), evaluate(opts, random_pairs(runs, n, opts.random_pairs, rng),
                                           f"A/A random {n}")))
    print("\n## A/A: share of group pairs with exit status 1 (share of rows flagged)\n")
    print("Columns: the thresholds of communication / file I/O.\n")
    several = [x for x in aa if x[0][0] > 1]
    if several:
        table_aa(several, [(t, opts_io_for(t)) for t in COMM_THRESHOLDS])
    one = [x for x in aa if x[0][0] == 1]
    if one:
        print("\nOne run a side (families and OVERALL judged by the band alone):\n")
        table_aa(one, [(t, t) for t in SINGLE_BANDS] + [(50, 100), (100, 200), (150, 300)])

    inj = []
    with tempfile.TemporaryDirectory(prefix="compare-noise-") as tmp:
        for n in sizes:
            for design in ("block", "random"):
                base = (block_pairs(runs, n) if design == "block" else
                        random_pairs(runs, n, opts.random_pairs // 2, rng))
                for f in factors:
                    pairs = [(a, [scaled_copy(r, f, tmp) for r in b]) for a, b in base]
                    if pairs:
                        inj.append(((n, design, f),
                                    evaluate(opts, pairs, f"injected {design} {n} x{f:g}")))
    print("\n## Injected slowdown (the second group's times x factor): share of communication "
          "rows flagged (share of pairs with exit status 1)\n")
    table_injected(inj)
    return 0


if __name__ == "__main__":
    sys.exit(main())
