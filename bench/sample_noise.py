#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Sample-to-sample and run-to-run noise of IMB rows on this machine, and what K samples cost:
the measurements behind the main job's default --samples (docs/adr/samples-default.md).

ROUNDS times, alternating: the main job's IMB-MPI1 phase (its default arguments, -time 0.1)
with --samples 1 and with --samples K --raw-samples on 2 processes. Prints
  - the wall time of each variant (median over rounds): whether K samples keep the row's time;
  - over the rows of the K runs: the median and 90th percentile of the samples' spread
    (interquartile range / median) and of the 95 % interval's relative width
    ((ci95_high - ci95_low) / median);
  - run to run: per row, the relative difference of t_avg between consecutive rounds of the
    same variant (median and 90th percentile over rows and pairs), for K = 1 and for the
    median of K samples;
  - how often a row's median of the next K run falls outside this run's 95 % interval.

Usage: sample_noise.py BINARY ROUNDS K
  e.g. sample_noise.py build-openmpi/IMB-MPI1 5 10
  MPIEXEC sets the launcher (default "mpiexec --oversubscribe"; MPICH: mpiexec.mpich).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ARGS = ["PingPong", "PingPing", "Sendrecv", "Bcast", "Allreduce", "Alltoall", "Barrier",
        "-time", "0.1"]  # the main job's IMB-MPI1 phase, default mode (src/job/job_plan.c)


def run(binary, k, tmp):
    path = os.path.join(tmp, f"k{k}.jsonl")
    if os.path.exists(path):
        os.remove(path)
    cmd = os.environ.get("MPIEXEC", "mpiexec --oversubscribe").split() + \
        ["-np", "2", binary] + ARGS + ["--samples", str(k), "--json", path, "--quiet"]
    if k > 1:
        cmd.append("--raw-samples")
    t0 = time.monotonic()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t0
    rows = {}
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r.get("type") == "result" and r.get("status") == "ok":
                rows[(r["benchmark"], r.get("bytes"))] = r
    return wall, rows


def pct(v, p):
    v = sorted(v)
    return v[min(len(v) - 1, int(p * len(v)))] if v else float("nan")


def rel(a, b):
    return abs(a - b) / b if b > 0 else 0.0


def main():
    binary, rounds, k = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    walls = {1: [], k: []}
    runs = {1: [], k: []}
    with tempfile.TemporaryDirectory(prefix="mb-noise-") as tmp:
        for _ in range(rounds):
            for kk in (1, k):
                w, rows = run(binary, kk, tmp)
                walls[kk].append(w)
                runs[kk].append(rows)
    iqr, ciw = [], []
    for rows in runs[k]:
        for r in rows.values():
            m = r.get("t_avg_usec_median")
            if m and m > 0:
                iqr.append((r["t_avg_usec_q3"] - r["t_avg_usec_q1"]) / m)
                ciw.append((r["t_avg_usec_ci95_high"] - r["t_avg_usec_ci95_low"]) / m)
    d1, dk, outside, pairs = [], [], 0, 0
    for a, b in zip(runs[1], runs[1][1:]):
        d1 += [rel(a[key]["t_avg_usec"], b[key]["t_avg_usec"]) for key in a if key in b]
    for a, b in zip(runs[k], runs[k][1:]):
        for key in a:
            if key in b and "t_avg_usec_median" in a[key] and "t_avg_usec_median" in b[key]:
                dk.append(rel(a[key]["t_avg_usec_median"], b[key]["t_avg_usec_median"]))
                pairs += 1
                outside += not (a[key]["t_avg_usec_ci95_low"] <= b[key]["t_avg_usec_median"]
                                <= a[key]["t_avg_usec_ci95_high"])
    print(f"{binary}, 2 processes, {rounds} rounds, K = {k}; IMB-MPI1 {' '.join(ARGS)}")
    print(f"wall time, median over rounds: K=1 {statistics.median(walls[1]):.1f} s, "
          f"K={k} {statistics.median(walls[k]):.1f} s")
    print(f"rows with K={k}: {len(iqr)}; IQR/median: median {statistics.median(iqr):.3f}, "
          f"p90 {pct(iqr, 0.9):.3f}; ci95 width/median: median {statistics.median(ciw):.3f}, "
          f"p90 {pct(ciw, 0.9):.3f}")
    print(f"run to run |t_avg change|: K=1 median {statistics.median(d1):.3f} p90 "
          f"{pct(d1, 0.9):.3f}; median of K={k}: median {statistics.median(dk):.3f} p90 "
          f"{pct(dk, 0.9):.3f}")
    print(f"next run's median outside this run's ci95: {outside} of {pairs} "
          f"({100.0 * outside / max(pairs, 1):.0f} %)")


if __name__ == "__main__":
    main()
