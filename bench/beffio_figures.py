#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""b_eff_io's speed and faithfulness figures, measured in one window (b_eff_io issue).

For each process count (--np, default 2 and 4) and each MPI build given:
1. mpibench b_eff_io -T --seconds (default 60), --runs consecutive runs (default 3): the
   b_eff_io value of each, their spread ((max - min) / median; goal <= 10 %), the wall time
   of each and how far the measured part stayed from the schedule ("total_time_sec" of the
   JSON against -T; goal within 10 %).
2. The original b_eff_io 2.1 (--orig-openmpi / --orig-mpich: binaries built from its public
   source outside the repository), --orig-runs times (default 1) in the same window with the
   same -MB/-MT/-T: its b_eff_io and its "total execution time".
3. dd: a synced write (conv=fsync) of --dd-mb MiB to the same directory and the cached read
   of it, the file system's own figures next to the benchmarks'.

Runs of the two programs alternate (mpibench, original, mpibench, ...), so a drift of the
machine's load hits both. Scratch files go to --dir (default a new directory under /var/tmp,
i.e. the disk, not a tmpfs) and are removed. Prints a Markdown table for
docs/figures.md.

Usage: python3 bench/beffio_figures.py [--openmpi DIR] [--mpich DIR] [--orig-openmpi EXE]
           [--orig-mpich EXE] [--np 2,4] [--seconds 60] [--runs 3] [--orig-runs 1] [--mb 64]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_figures import MB, launcher  # noqa: E402
from ext_figures import library  # noqa: E402

DD = re.compile(r"copied, ([0-9.e+-]+) s")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def timed(cmd, cwd):
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, env=ENV)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-2000:]}"
                 f"{proc.stderr[-2000:]}")
    return proc.stdout, wall


def mpibench(mpiexec, build, np, opts, work):
    """(b_eff_io MB/s, total_time_sec of the JSON, wall seconds, b_eff_io by 2.1's formula)
    of one run. 2.1 prints max over the partitions of sqrt(mean(write, rewrite) x read);
    mpibench's headline is the paper's 0.25 write + 0.25 rewrite + 0.5 read, and the JSON
    has both per partition."""
    js = os.path.join(work, "r.jsonl")
    if os.path.exists(js):
        os.unlink(js)
    _, wall = timed(mpiexec + ["-np", str(np), os.path.join(build, "b_eff_io"), "-MB",
                               str(opts.mb), "-MT", str(opts.mb * np), "-T", str(opts.seconds),
                               "-p", work, "-f", os.path.join(work, "mb"), "--json", js,
                               "--quiet"], work)
    with open(js) as f:
        recs = [json.loads(l) for l in f]
    res = [r for r in recs if r["type"] == "beffio_result"]
    parts = [r for r in recs if r["type"] == "beffio_partition"]
    if len(res) != 1 or res[0]["errors"] or not parts:
        sys.exit(f"mpibench b_eff_io: no clean result in {js}")
    rel21 = max(p["release21_mb_per_sec"] for p in parts)
    return res[0]["b_eff_io_mb_per_sec"], res[0]["total_time_sec"], wall, rel21


def original(mpiexec, exe, np, opts, work):
    """(b_eff_io MB/s, "total execution time", wall seconds) of b_eff_io 2.1."""
    prefix = os.path.join(work, "orig")
    out, wall = timed(mpiexec + ["-np", str(np), exe, "-MB", str(opts.mb), "-MT",
                                 str(opts.mb * np), "-T", str(opts.seconds), "-p", work, "-f",
                                 prefix], work)
    with open(prefix + ".prot") as f:
        prot = f.read()
    value = re.search(r"b_eff_io = +([0-9.]+) MB/s", out + prot)
    total = re.search(r"total execution time is +([0-9.]+) sec", prot)
    if not value or not total:
        sys.exit(f"b_eff_io 2.1: no result line\n{out[-2000:]}")
    return float(value.group(1)), float(total.group(1)), wall


def dd(work, size_mb):
    """(synced write MB/s, cached read MB/s), MB = 10^6 bytes as b_eff_io prints."""
    path = os.path.join(work, "dd.tmp")
    w = subprocess.run(["dd", "if=/dev/zero", f"of={path}", "bs=1M", f"count={size_mb}",
                        "conv=fsync"], capture_output=True, text=True)
    r = subprocess.run(["dd", f"if={path}", "of=/dev/null", "bs=1M"], capture_output=True,
                       text=True)
    os.unlink(path)
    tw, tr = DD.search(w.stderr), DD.search(r.stderr)
    if w.returncode or r.returncode or not tw or not tr:
        sys.exit(f"dd failed: {w.stderr}{r.stderr}")
    size = size_mb * MB / 1e6
    return size / float(tw.group(1)), size / float(tr.group(1))


def spread(values):
    return (max(values) - min(values)) / statistics.median(values)


def measure(label, mpiexec, build, orig, np, opts, work):
    mine, theirs = [], []
    for k in range(max(opts.runs, opts.orig_runs)):
        if k < opts.runs:
            mine.append(mpibench(mpiexec, build, np, opts, work))
            print(f"  {label} np {np} mpibench run {k + 1}: {mine[-1][0]:.1f} MB/s "
                  f"(2.1's formula {mine[-1][3]:.1f}), measured {mine[-1][1]:.1f} s, "
                  f"wall {mine[-1][2]:.1f} s", flush=True)
        if orig and k < opts.orig_runs:
            theirs.append(original(mpiexec, orig, np, opts, work))
            print(f"  {label} np {np} b_eff_io 2.1 run {k + 1}: {theirs[-1][0]:.1f} MB/s, "
                  f"total {theirs[-1][1]:.1f} s, wall {theirs[-1][2]:.1f} s", flush=True)
    write, read = dd(work, opts.dd_mb)
    return mine, theirs, write, read


def row(label, np, mine, theirs, write, read, seconds):
    vals = [m[0] for m in mine]
    rel21 = [m[3] for m in mine]
    times = [m[1] for m in mine]
    off = max(abs(t - seconds) / seconds for t in times)
    orig = ", ".join(f"{t[0]:.0f}" for t in theirs) or "-"
    orig_t = ", ".join(f"{t[1]:.1f}" for t in theirs) or "-"
    orig_spread = f"{100 * spread([t[0] for t in theirs]):.1f} %" if len(theirs) > 1 else "-"
    return (f"| {label} | {np} | {', '.join(f'{v:.0f}' for v in vals)} "
            f"({100 * spread(vals):.1f} %) | {', '.join(f'{v:.0f}' for v in rel21)} "
            f"({100 * spread(rel21):.1f} %) | {orig} ({orig_spread}) | "
            f"{', '.join(f'{t:.1f}' for t in times)} (max {100 * off:.1f} % off) | {orig_t} | "
            f"{write:.0f} / {read:.0f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--openmpi", help="mpibench build directory (Open MPI)")
    ap.add_argument("--mpich", help="mpibench build directory (MPICH)")
    ap.add_argument("--orig-openmpi", help="b_eff_io 2.1 built with Open MPI")
    ap.add_argument("--orig-mpich", help="b_eff_io 2.1 built with MPICH")
    ap.add_argument("--np", default="2,4")
    ap.add_argument("--mpich-np", default="2", help="MPICH busy-polls: fewer processes")
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--orig-runs", type=int, default=1)
    ap.add_argument("--mb", type=int, default=64, help="-MB (the original needs it)")
    ap.add_argument("--dd-mb", type=int, default=1024)
    ap.add_argument("--dir", help="scratch directory (default: new under /var/tmp)")
    opts = ap.parse_args()
    builds = [(b, o, nps) for b, o, nps in ((opts.openmpi, opts.orig_openmpi, opts.np),
                                            (opts.mpich, opts.orig_mpich, opts.mpich_np)) if b]
    if not builds:
        sys.exit("give --openmpi and/or --mpich build directories")
    work = tempfile.mkdtemp(prefix="beffio-figures-", dir=opts.dir or "/var/tmp")
    lines = []
    try:
        for build, orig, nps in builds:
            build = os.path.abspath(build)
            mpiexec = launcher(build)
            label = library(mpiexec)
            for np in map(int, nps.split(",")):
                mine, theirs, write, read = measure(label, mpiexec, build, orig, np, opts, work)
                lines.append(row(label, np, mine, theirs, write, read, opts.seconds))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n-T {opts.seconds}, -MB {opts.mb}, scratch in {opts.dir or '/var/tmp'}; "
          f"b_eff_io in MB/s (10^6 bytes/s)\n")
    print("| MPI | np | mpibench b_eff_io (spread) | same runs, 2.1's formula (spread) | "
          "b_eff_io 2.1 (spread) | mpibench measured time [s] | 2.1 total time [s] | "
          "dd write (fsync) / cached read |")
    print("|---|---|---|---|---|---|---|---|")
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
