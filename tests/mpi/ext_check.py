#!/usr/bin/env python3
"""Run IMB-EXT under mpiexec and check its text and JSON output.

IMB-EXT's rules, re-derived from the IMB 3.1 guide independently of the C code, on top of
imb_check.py's IMB machinery (process counts, Multi groups, -map, table layout, JSON = text):
the six benchmarks in sample 6.4's order (Window, Unidir_Get, Unidir_Put, Bidir_Get,
Bidir_Put, Accumulate; 4.2.3), single transfers on exactly 2 processes with throughput
X/1.048576/t (Tables 3-6), Accumulate on floats without throughput (Table 7), Window with the
non-aggregate repetition count (sample 6.4: 100 ... 10), and every transfer benchmark as two
blocks per process count, "MODE: AGGREGATE" with MSGSPERSAMPLE and "MODE: NON-AGGREGATE"
with MSGS_NONAGGR repetitions (4.2.2.2, 5.2.8.2). With --info it checks that the effective
settings show the entries.

Usage: ext_check.py --mpiexec CMD --np N --bin PATH [options] -- IMB-EXT arguments
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import imb_check  # noqa: E402  (the IMB rules and text/JSON checks, parameterised by family)
import mbcheck  # noqa: E402
from mbcheck import fail  # noqa: E402

# name: (class, element size, single transfer, throughput factor); dict order = sample 6.4.
EXT = imb_check.Family(
    "IMB-EXT",
    {
        "Window": ("other", 1, False, 0),
        "Unidir_Get": ("single", 1, True, 1),
        "Unidir_Put": ("single", 1, True, 1),
        "Bidir_Get": ("single", 1, True, 1),
        "Bidir_Put": ("single", 1, True, 1),
        "Accumulate": ("collective", 4, False, 0),
    },
    "MPI-2 part",
    aggregate=("Unidir_Get", "Unidir_Put", "Bidir_Get", "Bidir_Put", "Accumulate"),
    nonaggr_only=("Window",))


def check_run(run):
    verdict = imb_check.check_run(run, EXT)
    args = run.args
    infos = [args[i + 1] for i, a in enumerate(args[:-1]) if a == "--info"]
    shown = [line for line in run.stdout.splitlines() if line.startswith("#   --info ")]
    if imb_check.finished(run.stdout):
        want = " ".join(infos) if infos else "MPI_INFO_NULL"
        if shown != [f"#   {'--info':<18}: {want}"]:
            fail(f"effective --info line {shown}, expected the value {want!r}")
    return verdict


def main():
    ap = imb_check.add_options(mbcheck.parser(__doc__))
    return mbcheck.main(check_run, ap, tmp_prefix="mb-ext-")


if __name__ == "__main__":
    sys.exit(main())
