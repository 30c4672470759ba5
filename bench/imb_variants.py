#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""IMB-MPI1-style programs side by side in alternating rounds, each run under chrt -f 1: the
median time per benchmark and length of every variant, and its ratio to the first variant.

The first variant is the reference (IMB 3.1 built by bench/originals/build.sh, outside this
checkout); the others are mpibench with options to compare (docs/adr/imb-thread-level.md and
docs/adr/program-imb-buffers.md were measured so). Times: t of PingPong/PingPing, t_avg of the
other tables; IMB-EXT's two modes are rows of their own ("Accumulate aggregate"). Needs root
or CAP_SYS_NICE for chrt; 2 processes, so one per core here.

Usage: imb_variants.py ROUNDS BENCH,BENCH,... LENGTHS_FILE NAME=BINARY[:ARGS] ...
  e.g. imb_variants.py 5 PingPong,Alltoall lengths \\
         imb31=$ORIG/imb31-openmpi/IMB-MPI1 mb=build-openmpi/IMB-MPI1 \\
         single="build-openmpi/IMB-MPI1:-thread_level single"
  MPIEXEC sets the launcher (default "mpiexec --oversubscribe"; MPICH: mpiexec.mpich).
"""
import re
import statistics
import sys

import alternate

ROW = re.compile(r"^\s+(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)(?:\s+([\d.]+))?")


def times(text):
    """(benchmark, length) -> t of one run's text."""
    out, bench, mode = {}, None, ""
    for line in text.splitlines():
        m = re.match(r"# Benchmarking (\S+)", line)
        if m:
            bench, mode = m.group(1), ""
            continue
        m = re.match(r"#\s+MODE: (\S+)", line)
        if m:
            mode = " " + m.group(1).lower()
            continue
        m = ROW.match(line)
        if m and bench:
            cols = [float(x) for x in m.groups()[2:] if x]
            single = bench in ("PingPong", "PingPing") or len(cols) < 3
            out[(bench + mode, int(m.group(1)))] = cols[0] if single else cols[2]
    return out


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 2
    rounds, benches, lengths = int(sys.argv[1]), sys.argv[2].split(","), sys.argv[3]
    variants = alternate.parse(sys.argv[4:])
    res = alternate.run(rounds, variants,
                        lambda binary, args: [binary] + benches + ["-msglen", lengths] + args,
                        times)
    if res is None:
        return 1
    names = [v[0] for v in variants]
    print("%-24s %9s " % ("benchmark", "bytes") + " ".join("%12s" % n for n in names) +
          "   ratio " + names[0] + " / each")
    for (bench, length), d in res.items():
        med = [statistics.median(d[n]) if n in d else float("nan") for n in names]
        print("%-24s %9d " % (bench, length) + " ".join("%12.2f" % m for m in med) + "   " +
              " ".join("%5.2f" % (med[0] / m if m else 0) for m in med[1:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
