#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Presta laten programs side by side in alternating rounds, each run under chrt -f 1: the median
"Max Latency" of every variant per process count, every run's value, and the first variant's
latency over each other's.

The first variant is the reference (Presta 1.2's laten built by bench/originals/build.sh,
outside this checkout); the others are mpibench builds, options, or modified copies of laten.c
built outside the checkout (docs/figures.md, "Presta laten Max latency"). Needs root or
CAP_SYS_NICE for chrt; 2 processes, so one per core here.

Usage: presta_laten_variants.py ROUNDS "LATEN ARGS" NAME=BINARY[:ARGS] ...
  e.g. presta_laten_variants.py 11 "-o 1000" \\
         laten=$ORIG/presta12-openmpi/laten mb=build-openmpi/laten
  MPIEXEC sets the launcher (default "mpiexec --oversubscribe"; MPICH: mpiexec.mpich).
"""
import re
import statistics
import sys

import alternate

ROW = re.compile(r"^\s+(\d+)\s+([\d.]+)\s*$", re.M)


def cells(text):
    """process count -> Max Latency (us) of one run's text."""
    return {int(m.group(1)): float(m.group(2)) for m in ROW.finditer(text)}


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    rounds, args = int(sys.argv[1]), sys.argv[2].split()
    variants = alternate.parse(sys.argv[3:])
    res = alternate.run(rounds, variants, lambda binary, extra: [binary] + args + extra, cells)
    if res is None:
        return 1
    names = [v[0] for v in variants]
    for procs, per in sorted(res.items()):
        med = [statistics.median(per[n]) if n in per else float("nan") for n in names]
        print("%d processes" % procs)
        for n, m in zip(names, med):
            print("  %-10s median %.4f us  runs %s" % (
                n, m, " ".join("%.3f" % x for x in sorted(per.get(n, [])))))
        print("  " + "  ".join("%s/%s %.3f" % (names[0], n, med[0] / m if m else float("nan"))
                               for n, m in zip(names[1:], med[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
