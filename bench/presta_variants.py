#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Presta com programs side by side in alternating rounds, each run under chrt -f 1: the median
time per operation of every variant per direction and length, and the first variant's time
over each other's.

The first variant is the reference (Presta 1.2's com built by bench/originals/build.sh, outside
this checkout); the others are mpibench builds or options to compare (docs/adr/startup-messages.md
was measured so, with a build of the commit before it as a third variant). Needs root or
CAP_SYS_NICE for chrt; 2 processes, so one per core here.

Usage: presta_variants.py ROUNDS "COM ARGS" NAME=BINARY[:ARGS] ...
  e.g. presta_variants.py 5 "-o 100 -b 32 -e 4096" \\
         com=$ORIG/presta12-openmpi/com mb=build-openmpi/com
  MPIEXEC sets the launcher (default "mpiexec --oversubscribe"; MPICH: mpiexec.mpich).
"""
import re
import statistics
import sys

import alternate

ROW = re.compile(r"^\s+(Unidirectional|Bidirectional)\s+\d+\s+(\d+)\s+\S+\s+([\d.]+)", re.M)


def cells(text):
    """(direction, bytes) -> time per operation of one run's text."""
    return {(m.group(1), int(m.group(2))): float(m.group(3)) for m in ROW.finditer(text)}


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    rounds, com_args = int(sys.argv[1]), sys.argv[2].split()
    variants = alternate.parse(sys.argv[3:])
    res = alternate.run(rounds, variants, lambda binary, args: [binary] + com_args + args, cells)
    if res is None:
        return 1
    names = [v[0] for v in variants]
    print("%-15s %8s " % ("direction", "bytes") + " ".join("%10s" % n for n in names) +
          "".join("  %s/%s" % (names[0], n) for n in names[1:]))
    for (d, size), per in sorted(res.items()):
        med = [statistics.median(per[n]) if n in per else float("nan") for n in names]
        print("%-15s %8d " % (d, size) + " ".join("%10.3f" % m for m in med) +
              "".join("  %*.2f" % (len(names[0]) + len(n) + 1, med[0] / m if m else float("nan"))
                      for n, m in zip(names[1:], med[1:])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
