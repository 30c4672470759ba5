#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""IMB-IO against a hand-written MPI-IO loop, dd, and itself on more processes.

The figures the IMB-IO issue asks for, measured in one run (runs alternate between the
programs, so a drift of the machine's load favours none; medians of --runs rounds):

1. Harness cost: S_Write_Indv and S_Read_Indv (aggregate mode, one process; the second of
   two identical loops, as the reference reports its second pass) against
   bench/ref_io.c (mb_ref_io: the same MPI_File_write / MPI_File_read loop, the same
   completion, nothing else) at a small length (per-call cost; --small, default 4 KiB) and
   at 16 MiB (--big), same repetitions (-iter set so; checked in the JSON). Goal: IMB-IO
   within 5 % of the reference.
2. The file system: S_Write_Indv 16 MiB against `dd if=/dev/zero bs=1M count=16
   conv=fsync` (write and flush to the device), S_Read_Indv 16 MiB against `dd of=/dev/null`
   of a file just written (a cached read, as S_Read_Indv reads the file it has just filled).
3. Scaling: P_Read_Indv 16 MiB on 1, 2, 3 and 4 processes (Open MPI, oversubscribed beyond
   the cores), Mbytes/sec of the whole group.

The scratch files go to --dir (default a new directory under /tmp) and are removed.

Usage: python3 bench/io_figures.py [--openmpi DIR] [--mpich DIR] [--runs N] [--dir DIR]
           [--idle-wait SECS]
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness_figures import MB, launcher, run  # noqa: E402
from ext_figures import iter_arg, lenfile, library, loadavg, wait_idle  # noqa: E402

GOAL = 0.05


def imb_io(mpiexec, build, tmp, scratch, bench, size, reps, np=1):
    """Mbytes/sec of the aggregate row of one IMB-IO benchmark at one length on np processes.
    The length is listed twice and the second row counts: a process's first MPI-IO loop pays
    a one-time cost (cold code paths; IMB-IO has no warm-up, guide 5.2.6), which mb_ref_io
    excludes the same way (it reports its second pass)."""
    path = os.path.join(tmp, "io.jsonl")
    lens = os.path.join(tmp, f"twice{size}")
    with open(lens, "w") as f:
        f.write(f"{size}\n{size}\n")
    run(mpiexec + ["-np", str(np), os.path.join(build, "IMB-IO"), bench, "-npmin", str(np),
                   "-msglen", lens, "-iter", iter_arg(size, reps), "--dir", scratch,
                   "--json", path, "--quiet"])
    rows = []
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            if r["type"] == "result" and r.get("mode") == "aggregate" and r["processes"] == np:
                if r["repetitions"] != reps or r["status"] != "ok":
                    sys.exit(f"IMB-IO {bench} ran {r['repetitions']} repetitions, not {reps}")
                rows.append(r["mib_per_sec"])
    if len(rows) != 2:
        sys.exit(f"IMB-IO {bench}: {len(rows)} aggregate rows on {np} processes, expected 2")
    return rows[1]


def ref_io(mpiexec, build, scratch, what, size, reps):
    out, _ = run(mpiexec + ["-np", "1", os.path.join(build, "mb_ref_io"), what,
                            os.path.join(scratch, "ref_io.tmp"), str(size), str(reps)])
    return float(out.split()[2])


DD = re.compile(r"copied, ([0-9.eE+-]+) s")


def dd(scratch, what, size):
    """MB/s (2^20 bytes) of dd writing size bytes with fsync, or reading them back cached."""
    path = os.path.join(scratch, "dd.tmp")
    # 1 MiB blocks: dd's buffer is fresh memory, and first touching 16 MiB of it costs more
    # than the I/O on this VM (docs/figures.md).
    bs = min(size, MB)
    w = subprocess.run(["dd", "if=/dev/zero", f"of={path}", f"bs={bs}", f"count={size // bs}",
                        "conv=fsync"], capture_output=True, text=True)
    proc = w
    if what == "read":
        proc = subprocess.run(["dd", f"if={path}", "of=/dev/null", f"bs={bs}"],
                              capture_output=True, text=True)
    os.unlink(path)
    m = DD.search(proc.stderr)
    if w.returncode != 0 or proc.returncode != 0 or not m:
        sys.exit(f"dd failed: {w.stderr}{proc.stderr}")
    return size / MB / float(m.group(1))


def series(runs, idle_wait, steps):
    """Runs the steps (name -> function) in alternating order; {name: [values]}."""
    values = {name: [] for name in steps}
    names = list(steps)
    quiet = 0
    for k in range(runs):
        if idle_wait > 0:
            quiet += wait_idle(idle_wait)
        for name in (names if k % 2 == 0 else names[::-1]):
            values[name].append(steps[name]())
    return values, quiet


def report(label, values, ref, goal=True):
    m = {n: statistics.median(v) for n, v in values.items()}
    pair = [a / b for a, b in zip(values["IMB-IO"], values[ref])]
    ratio = m["IMB-IO"] / m[ref]
    verdict = (f"  within 5 %: {'yes' if ratio >= 1 - GOAL else 'NO'}" if goal else "")
    print(f"  {label}: IMB-IO {m['IMB-IO']:.1f} MB/s, {ref} {m[ref]:.1f} MB/s, ratio "
          f"{ratio:.3f} (pairwise median {statistics.median(pair):.3f}, range "
          f"{min(pair):.3f}..{max(pair):.3f}){verdict}")
    return m["IMB-IO"], m[ref], ratio, statistics.median(pair)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--openmpi", default="build-openmpi", help="Open MPI build directory")
    ap.add_argument("--mpich", help="MPICH build directory (optional)")
    ap.add_argument("--runs", type=int, default=7, help="alternating rounds per case")
    ap.add_argument("--small", type=int, default=4096, help="the per-call length (bytes)")
    ap.add_argument("--small-reps", type=int, default=50, help="repetitions at --small")
    ap.add_argument("--big", type=int, default=16 * MB, help="the bandwidth length (bytes)")
    ap.add_argument("--big-reps", type=int, default=10, help="repetitions at --big")
    ap.add_argument("--dir", help="directory for the scratch files (default: a new one in /tmp)")
    ap.add_argument("--idle-wait", type=float, default=0, metavar="SECS",
                    help="before each round wait up to SECS for an idle second")
    opts = ap.parse_args()
    builds = [opts.openmpi] + ([opts.mpich] if opts.mpich else [])
    table = []
    with tempfile.TemporaryDirectory(prefix="mb-io-fig-") as tmp:
        scratch = opts.dir or tmp
        for build in builds:
            mpiexec = launcher(build)
            name = library(mpiexec)
            print(f"== {name} ({build}), {opts.runs} rounds, files in {scratch}")
            loads = [loadavg()]
            for bench, what in (("S_Write_Indv", "write"), ("S_Read_Indv", "read")):
                for size, reps in ((opts.small, opts.small_reps), (opts.big, opts.big_reps)):
                    steps = {
                        "IMB-IO": lambda b=bench, s=size, r=reps: imb_io(mpiexec, build, tmp,
                                                                         scratch, b, s, r),
                        "reference": lambda w=what, s=size, r=reps: ref_io(mpiexec, build,
                                                                           scratch, w, s, r)}
                    if size == opts.big:
                        steps["dd"] = lambda w=what, s=size: dd(scratch, w, s)
                    values, quiet = series(opts.runs, opts.idle_wait, steps)
                    loads.append(loadavg())
                    label = f"{bench} {size} B x {reps}"
                    mi, mr, ratio, pair = report(label, values, "reference")
                    md = statistics.median(values["dd"]) if "dd" in values else None
                    if md is not None:
                        print(f"    dd {'conv=fsync' if what == 'write' else 'cached read'}: "
                              f"{md:.1f} MB/s (IMB-IO / dd {mi / md:.3f})")
                    table.append((name, label, mi, mr, ratio, pair, md))
            if name == "Open MPI":
                scale = {}
                for np in (1, 2, 3, 4):
                    scale[np] = statistics.median(
                        imb_io(mpiexec, build, tmp, scratch, "P_Read_Indv", opts.big,
                               opts.big_reps, np) for _ in range(opts.runs))
                print("  P_Read_Indv " + ", ".join(f"{np} processes {v:.0f} MB/s"
                                                   for np, v in scale.items()))
                table.append((name, "P_Read_Indv scaling", scale, None, None, None, None))
            print(f"  load average {min(loads):.1f}..{max(loads):.1f} on {os.cpu_count()} CPUs")
    print("\n| MPI | case | IMB-IO MB/s | reference MB/s | ratio (pairwise) | dd MB/s |")
    print("|---|---|---|---|---|---|")
    for name, label, mi, mr, ratio, pair, md in table:
        if mr is None:
            print(f"| {name} | {label} | " + ", ".join(f"{np}: {v:.0f}" for np, v in mi.items())
                  + " | | | |")
            continue
        print(f"| {name} | {label} | {mi:.1f} | {mr:.1f} | {ratio:.3f} ({pair:.3f}) | "
              f"{'' if md is None else f'{md:.1f}'} |")


if __name__ == "__main__":
    main()
