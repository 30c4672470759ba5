#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""IMB-IO read rows of IMB-IO-style programs in alternating rounds, at normal priority: the
median time per read benchmark and length of every program over the rounds, its range, and the
first program's median divided by each other's (above 1: the other reads faster).

The first program is the reference (IMB 3.1's IMB-IO built by bench/originals/build.sh, outside
this checkout), the others mpibench builds or options to compare; every program runs the same
benchmark list with the same -msglen file, so each read runs after the same benchmarks as in
the other programs (where the buffers are depends on what ran before:
docs/adr/program-imb-io-buffers.md). Figures: t of the S_ tables, t_max of the others. Every
round runs each program once, the order rotated by one per round; the reference's own range
over the rounds is the noise band to read the ratios against.

Usage: imb_io_reads.py ROUNDS BENCH,BENCH,... LENGTHS NAME=BINARY[:ARGS] ...
  e.g. imb_io_reads.py 7 S_Write_indv,S_Read_indv,P_Read_shared,C_Read_indv 65536,1048576 \\
         imb31=$ORIG/imb31-openmpi/IMB-IO mb=build-openmpi/IMB-IO \\
         block="build-openmpi/IMB-IO:-buf_scope block"
  MPIEXEC sets the launcher (default "mpiexec --oversubscribe"; MPICH: mpiexec.mpich); 2
  processes; scratch files in a new directory under SCRATCH (default /var/tmp), removed after.
"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def reads(text, lengths):
    """(benchmark, length) -> the figure, for the read benchmarks of one run's text."""
    out, bench = {}, None
    for line in text.splitlines():
        m = re.match(r"# Benchmarking (\S+)", line)
        if m:
            bench = m.group(1)
            continue
        cols = line.split()
        if bench and "Read" in bench and len(cols) >= 4 and cols[0].isdigit() \
                and int(cols[0]) in lengths:
            out[(bench, int(cols[0]))] = float(cols[2] if bench.startswith("S_") else cols[3])
    return out


def main():
    if len(sys.argv) < 6:
        print(__doc__, file=sys.stderr)
        return 2
    rounds = int(sys.argv[1])
    benches = sys.argv[2].split(",")
    lengths = [int(x) for x in sys.argv[3].split(",")]
    progs = []
    for spec in sys.argv[4:]:
        name, _, rest = spec.partition("=")
        exe, _, args = rest.partition(":")
        progs.append((name, os.path.abspath(exe), args.split()))
    launch = os.environ.get("MPIEXEC", "mpiexec --oversubscribe").split() + ["-np", "2"]
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    work = tempfile.mkdtemp(dir=os.environ.get("SCRATCH", "/var/tmp"), prefix="imb-io-reads-")
    try:
        lfile = os.path.join(work, "lengths")
        with open(lfile, "w") as f:
            f.write("".join(f"{n}\n" for n in lengths))
        res = {p[0]: [] for p in progs}
        for r in range(rounds):
            for name, exe, args in progs[r % len(progs):] + progs[:r % len(progs)]:
                cwd = os.path.join(work, name)
                os.makedirs(cwd, exist_ok=True)
                start = time.monotonic()
                p = subprocess.run(launch + [exe] + args + ["-npmin", "2", "-msglen", lfile]
                                   + benches, cwd=cwd, env=env, capture_output=True, text=True,
                                   timeout=1800)
                if p.returncode != 0:
                    print(f"{name} failed (exit {p.returncode}):\n{p.stderr[-2000:]}",
                          file=sys.stderr)
                    return 1
                res[name].append(reads(p.stdout, lengths))
                print(f"round {r + 1} {name}: {time.monotonic() - start:.1f} s, load "
                      f"{os.getloadavg()[0]:.1f}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ref = progs[0][0]
    names = [p[0] for p in progs]
    print("| benchmark | bytes | " + " | ".join(f"{n} us (median; range)" for n in names) + " | "
          + " | ".join(f"{ref}/{n}" for n in names[1:]) + " |")
    print("|---|---|" + "---|" * (2 * len(names) - 1))
    for key in sorted(res[ref][0]):
        med, cells = {}, []
        for n in names:
            v = [x[key] for x in res[n] if key in x]
            med[n] = statistics.median(v)
            cells.append(f"{med[n]:.1f} ({min(v):.1f}-{max(v):.1f})")
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " | "
              + " | ".join(f"{med[ref] / med[n]:.2f}" for n in names[1:]) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
