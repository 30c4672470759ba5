#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""How often `mpibench compare` cries wolf, and how often it catches a real slowdown.

(a) A/A: PAIRS pairs of back-to-back `mpibench run --quick` runs with the same settings; each
    pair compared (`compare --all --json -`). Reports, per pair and over all pairs, the fraction
    of compared rows flagged REGRESSED (issue: at most 5 %), compare's exit status, and the
    run-to-run noise of the rows: percentiles of max(r, 1/r) - 1 of the ratios r, separately
    for rows of one sample and rows measured as samples. The 95th percentile of single-sample
    rows is the noise band (`compare --noise`) at which 5 % of unchanged rows would be flagged.
(b) Injected regression: INJECTED pairs whose second run is made slower on purpose (Open MPI
    forced to its TCP transport: `--mca pml ob1 --mca btl tcp,self`, or every rank bound to
    one core); reports the fraction of point-to-point rows (IMB-MPI1 PingPong, PingPing,
    Sendrecv, Exchange; Presta com, laten) flagged REGRESSED (issue: at least 95 %) and
    compare's exit status (issue: 1).

With --suite 'SUITE ARGS' each run is that suite alone (its --json file) instead of the main
job. Extra arguments of every run (for example `--samples 9 --raw-samples`, once the suites take
them) are given with --run-args; compare's own options (--threshold, --noise) with
--compare-args. Runs go to WORKDIR/pair-NN-{a,b} (A/A) and WORKDIR/slow-NN-{a,b}; an existing
run directory is reused with --reuse (to re-evaluate runs with other compare options).

Usage: compare_noise.py --build BUILD_DIR [--compare-build DIR] [--pairs 10] [--injected 3] [--np 2]
           [--mpiexec 'mpiexec --oversubscribe'] [--inject tcp|onecore]
           [--run-args '...'] [--compare-args '...'] [--workdir DIR] [--reuse]
"""

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
import time

INJECT = {
    # Open MPI's TCP transport over loopback instead of shared memory; one-sided through
    # osc/pt2pt, since Open MPI 4.1's osc/rdma cannot create a window without the
    # shared-memory transport (the main job would stop at IMB-EXT).
    "tcp": ["--mca", "pml", "ob1", "--mca", "btl", "tcp,self", "--mca", "osc", "pt2pt"],
    # Every rank on CPU 0 (they then share one core).
    "onecore": ["--cpu-set", "0", "--bind-to", "core:overload-allowed"],
}
PT2PT = ("IMB-MPI1 PingPong,", "IMB-MPI1 PingPing,", "IMB-MPI1 Sendrecv,", "IMB-MPI1 Exchange,",
         "com ", "laten ")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(opts, name, extra_launch):
    d = os.path.join(opts.workdir, name)
    if opts.reuse and os.path.isfile(os.path.join(d, "results.jsonl")):
        return d
    bin_ = os.path.join(os.path.abspath(opts.build), "mpibench")
    if opts.suite:
        # One suite instead of the main job: its JSON as the run's results.jsonl.
        os.makedirs(d, exist_ok=True)
        tail = shlex.split(opts.suite) + ["--json", os.path.join(d, "results.jsonl")]
    else:
        tail = ["run", "--quick", "--output-dir", d]
    cmd = (shlex.split(opts.mpiexec) + extra_launch + ["-np", str(opts.np), bin_] + tail +
           shlex.split(opts.run_args))
    start = time.monotonic()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
    log(f"  {name}: status {p.returncode} in {time.monotonic() - start:.0f} s, load "
        f"{os.getloadavg()[0]:.1f}")
    if p.returncode != 0:
        sys.exit(f"{shlex.join(cmd)}: status {p.returncode}\n{p.stderr[-2000:]}")
    return d


def compare(opts, a, b):
    cmd = ([os.path.join(os.path.abspath(opts.compare_build or opts.build), "mpibench"), "compare",
            "--all", "--json",
            "-"] + shlex.split(opts.compare_args) +
           [os.path.join(a, "results.jsonl"), os.path.join(b, "results.jsonl")])
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1):
        sys.exit(f"{shlex.join(cmd)}: status {p.returncode}\n{p.stderr}")
    recs = [json.loads(line) for line in p.stdout.splitlines()]
    return p.returncode, [r for r in recs if r["type"] == "compare_row"], recs[-1]


def percentile(v, q):
    if not v:
        return float("nan")
    v = sorted(v)
    k = (len(v) - 1) * q
    lo = int(k)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def spread(rows):
    out = {}
    for kind in ("single_sample", "samples"):
        dev = [max(r["ratio"], 1 / r["ratio"]) - 1 for r in rows
               if r["ratio"] and (r["test"] == "single_sample") == (kind == "single_sample")]
        if dev:
            out[kind] = (len(dev), [100 * percentile(dev, q) for q in (0.5, 0.9, 0.95, 0.99)])
    return out


def calibrate(rows, summaries):
    """The A/A fraction flagged at other thresholds, each kind of row (communication, file I/O)
    in turn with the other at the threshold the pairs were compared with: the smallest
    threshold that keeps the fraction at 5 % is the default this machine's noise allows
    (compare's verdict, recomputed: significant and worse than 1 + threshold)."""
    if not rows or not summaries:
        return
    base = {False: summaries[0]["threshold_percent"], True: summaries[0]["io_threshold_percent"]}
    print("\nA/A rows flagged at other thresholds (the other kind at its threshold of "
          f"{base[False]:g} / {base[True]:g} %):\n")
    print("| threshold % | communication varied | file I/O varied |")
    print("|---|---|---|")
    for t in (10, 20, 30, 40, 50, 75, 100, 150, 200):
        cells = []
        for kind in (False, True):
            lim = {kind: t, not kind: base[not kind]}
            # compare's ratio is "> 1: worse" for times and bandwidths alike.
            n = sum(1 for r in rows
                    if r["significant"] and r["ratio"] > 1 + lim[bool(r["file_io"])] / 100)
            cells.append(f"{100 * n / len(rows):.1f} %")
        print(f"| {t} | {cells[0]} | {cells[1]} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True, help="build directory holding mpibench")
    ap.add_argument("--compare-build", help="build directory of the mpibench that compares "
                    "(default: --build)")
    ap.add_argument("--pairs", type=int, default=10, help="A/A pairs (default 10)")
    ap.add_argument("--injected", type=int, default=3, help="injected-regression pairs")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--mpiexec", default="mpiexec --oversubscribe")
    ap.add_argument("--inject", choices=sorted(INJECT), default="tcp")
    ap.add_argument("--suite", help="run this suite and its arguments (for example 'imb-mpi1 "
                    "PingPong Sendrecv') instead of 'run --quick'")
    ap.add_argument("--run-args", default="", help="extra arguments of every mpibench run")
    ap.add_argument("--compare-args", default="", help="extra arguments of compare")
    ap.add_argument("--workdir", default="compare-noise-runs")
    ap.add_argument("--reuse", action="store_true", help="reuse existing run directories")
    opts = ap.parse_args()
    os.makedirs(opts.workdir, exist_ok=True)
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")

    print(f"# bench/compare_noise.py {shlex.join(sys.argv[1:])}")
    print(f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {platform.node()}, "
          f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}, {opts.np} processes")
    if opts.reuse:
        print(f"# runs found in {opts.workdir} are reused: they were measured earlier (their "
              "dates are in their results' headers); the load above is today's")
    all_rows, summaries, flagged, total = [], [], 0, 0
    if opts.pairs:
        print("\n## A/A: back-to-back runs with the same settings\n")
        print("| pair | compared | regressed | fraction | improved | exit |")
        print("|---|---|---|---|---|---|")
    for i in range(1, opts.pairs + 1):
        a = run(opts, f"pair-{i:02d}-a", [])
        b = run(opts, f"pair-{i:02d}-b", [])
        status, rows, s = compare(opts, a, b)
        all_rows += [r for r in rows if r["ratio"] is not None]
        summaries.append(s)
        flagged += s["regressed"]
        total += s["compared"]
        print(f"| {i} | {s['compared']} | {s['regressed']} | "
              f"{100 * s['regressed'] / max(1, s['compared']):.1f} % | {s['improved']} | {status} |",
              flush=True)
    if opts.pairs:
        calibrate(all_rows, summaries)
        print(f"\nAll pairs: {flagged} of {total} rows flagged REGRESSED "
              f"({100 * flagged / max(1, total):.1f} %; at most 5 % wanted).\n")
        print("Run-to-run noise, max(r, 1/r) - 1 in percent (percentiles 50/90/95/99):\n")
        for kind, (n, p) in spread(all_rows).items():
            print(f"- {kind} rows ({n}): " + " / ".join(f"{x:.1f}" for x in p))
    if opts.injected:
        print(f"\n## Injected regression: second run with {shlex.join(INJECT[opts.inject])}\n")
        print("| pair | point-to-point rows | flagged | fraction | all rows flagged | exit |")
        print("|---|---|---|---|---|---|")
    caught = p2p_total = 0
    for i in range(1, opts.injected + 1):
        a = run(opts, f"slow-{i:02d}-a", [])
        b = run(opts, f"slow-{i:02d}-b", INJECT[opts.inject])
        status, rows, s = compare(opts, a, b)
        p2p = [r for r in rows if r["measurement"].startswith(PT2PT) and r["ratio"] is not None]
        hit = sum(r["verdict"] == "regressed" for r in p2p)
        caught += hit
        p2p_total += len(p2p)
        print(f"| {i} | {len(p2p)} | {hit} | {100 * hit / max(1, len(p2p)):.1f} % | "
              f"{s['regressed']} of {s['compared']} | {status} |", flush=True)
    if opts.injected:
        print(f"\nAll injected pairs: {caught} of {p2p_total} point-to-point rows flagged "
              f"({100 * caught / max(1, p2p_total):.1f} %; at least 95 % wanted).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
