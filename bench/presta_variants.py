#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Presta com (or, with --laten, laten) programs side by side in alternating rounds, each run
under chrt -f 1: the median figure of every variant per row - com's time per operation per
direction and length, laten's "Max Latency" per process count - every run's value (laten), and
the first variant's figure over each other's.

The first variant is the reference (Presta 1.2's com or laten built by
bench/originals/build.sh, outside this checkout); the others are mpibench builds, options, or
modified copies of the original built outside the checkout (docs/adr/startup-messages.md was
measured so, with a build of the commit before it as a third variant; docs/figures.md,
"Presta laten Max latency"). Needs root or CAP_SYS_NICE for chrt; 2 processes, so one per core
here.

Usage: presta_variants.py [--laten] ROUNDS "PROGRAM ARGS" NAME=BINARY[:ARGS] ...
  e.g. presta_variants.py 5 "-o 100 -b 32 -e 4096" \\
         com=$ORIG/presta12-openmpi/com mb=build-openmpi/com
       presta_variants.py --laten 11 "-o 1000" \\
         laten=$ORIG/presta12-openmpi/laten mb=build-openmpi/laten
  MPIEXEC sets the launcher (default "mpiexec --oversubscribe"; MPICH: mpiexec.mpich).
"""
import re
import statistics
import sys

import alternate

COM_ROW = re.compile(r"^\s+(Unidirectional|Bidirectional)\s+\d+\s+(\d+)\s+\S+\s+([\d.]+)", re.M)
LATEN_ROW = re.compile(r"^\s+(\d+)\s+([\d.]+)\s*$", re.M)


def com_cells(text):
    """(direction, bytes) -> time per operation of one run's text."""
    return {(m.group(1), int(m.group(2))): float(m.group(3)) for m in COM_ROW.finditer(text)}


def laten_cells(text):
    """process count -> Max Latency (us) of one run's text."""
    return {int(m.group(1)): float(m.group(2)) for m in LATEN_ROW.finditer(text)}


def ratio(a, b):
    return a / b if b else float("nan")


def print_com(res, names):
    print("%-15s %8s " % ("direction", "bytes") + " ".join("%10s" % n for n in names) +
          "".join("  %s/%s" % (names[0], n) for n in names[1:]))
    for (d, size), per in sorted(res.items()):
        med = [statistics.median(per[n]) if n in per else float("nan") for n in names]
        print("%-15s %8d " % (d, size) + " ".join("%10.3f" % m for m in med) +
              "".join("  %*.2f" % (len(names[0]) + len(n) + 1, ratio(med[0], m))
                      for n, m in zip(names[1:], med[1:])))


def print_laten(res, names):
    for procs, per in sorted(res.items()):
        med = [statistics.median(per[n]) if n in per else float("nan") for n in names]
        print("%d processes" % procs)
        for n, m in zip(names, med):
            print("  %-10s median %.4f us  runs %s" % (
                n, m, " ".join("%.3f" % x for x in sorted(per.get(n, [])))))
        print("  " + "  ".join("%s/%s %.3f" % (names[0], n, ratio(med[0], m))
                               for n, m in zip(names[1:], med[1:])))


def main():
    argv = sys.argv[1:]
    laten = argv[:1] == ["--laten"]
    if laten:
        argv = argv[1:]
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    rounds, prog_args = int(argv[0]), argv[1].split()
    variants = alternate.parse(argv[2:])
    res = alternate.run(rounds, variants, lambda binary, args: [binary] + prog_args + args,
                        laten_cells if laten else com_cells)
    if res is None:
        return 1
    names = [v[0] for v in variants]
    (print_laten if laten else print_com)(res, names)
    return 0


if __name__ == "__main__":
    sys.exit(main())
