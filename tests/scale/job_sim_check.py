#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks a `mpibench run --sim` output directory (docs/adr/job-sim-mode.md).

    job_sim_check.py DIR P

The job's mode is "sim"; com, laten, IMB-MPI1 and IMB-EXT ended with status 0; every Presta row
is one sample, com's sizes are 32 B and 1 MiB; IMB-MPI1's PingPong and PingPing ran on 2
processes and its collectives on all P only, at 0 and 8 bytes. Exit 0 when all hold, else 1
with one line per failed check.
"""
import json
import sys


def records(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def main():
    out, nprocs = sys.argv[1], int(sys.argv[2])
    recs = records(f"{out}/results.jsonl")
    bad = []
    modes = [r["mode"] for r in recs if r["type"] == "job_result"]
    if modes != ["sim"]:
        bad.append(f"job_result mode: {modes}, expected ['sim']")
    status = {r["program"]: r["exit_status"] for r in recs if r["type"] == "job_phase"}
    for prog in ("com", "laten", "IMB-MPI1", "IMB-EXT"):
        if status.get(prog) != 0:
            bad.append(f"phase {prog}: exit status {status.get(prog)}")
    presta = [r for r in recs if r["type"] == "presta_row"]
    if not presta or any(r["sample_count"] != 1 for r in presta):
        bad.append("Presta rows: not all of one sample (or none)")
    sizes = sorted({r["bytes"] for r in presta if r["suite"] == "com"})
    if sizes != [32, 1048576]:
        bad.append(f"com sizes {sizes}, expected [32, 1048576]")
    imb = [r for r in recs if r["type"] == "result" and r["suite"] == "IMB-MPI1"]
    for r in imb:
        want = 2 if r["benchmark"] in ("PingPong", "PingPing") else nprocs
        if r["processes"] != want or r["bytes"] not in (0, 8, None):
            bad.append(f"IMB-MPI1 {r['benchmark']}: {r['processes']} processes, "
                       f"{r['bytes']} bytes (expected {want} processes, 0 or 8 bytes)")
    if len({r["benchmark"] for r in imb}) != 7:
        bad.append(f"IMB-MPI1: {len({r['benchmark'] for r in imb})} benchmarks, expected 7")
    for line in bad:
        print(f"job_sim_check: {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
